#!/usr/bin/env bash
# The exporter's budgets (docs/performance.md), in one run, with 1,000 memcgs:
#  - CPU of 'lruscope export' (default 5 s interval) scraped every 15 s and every 1 s
#  - the time a scrape takes and the page's size and series
# A measurement, not a test: run it alone.
set -u
. "$(dirname "$0")/../lib.sh"
[ "$(id -u)" = 0 ] || { echo "export_bench: needs root"; exit 1; }
read -r _ root < <(lrs_memcg_root) || { echo "export_bench: no memory cgroup hierarchy"; exit 1; }
pfx=lrs-test-xbench$$-
cleanup() {
	lrs_cleanup
	for d in "$root"/"$pfx"*; do [ -d "$d" ] && rmdir "$d" 2>/dev/null; done
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
for i in $(seq -w 0 999); do mkdir "$root/$pfx$i"; done
PYTHONPATH=$LRS_ROOT/tests/lib /usr/bin/python3 - "$LRS_BIN" "${LRS_BENCH_SECS:-30}" <<'EOF2'
import os, signal, statistics, subprocess, sys, time
from lrs_export import free_port, scrape, samples
binary, secs = sys.argv[1], float(sys.argv[2])
port = free_port()
p = subprocess.Popen([binary, 'export', '-q', '--listen', '127.0.0.1:%d' % port, '-d', str(secs * 2 + 60)],
                     start_new_session=True)
try:
    end = time.time() + 60
    while scrape(port)[0] != 200 and time.time() < end:
        time.sleep(0.25)
    tick = os.sysconf('SC_CLK_TCK')

    def cpu():
        f = open('/proc/%d/stat' % p.pid).read().rsplit(')', 1)[1].split()
        return (int(f[11]) + int(f[12])) / tick

    time.sleep(6)  # a full interval after the first page
    for every in (15, 1):
        c0, t0, lat = cpu(), time.time(), []
        while time.time() - t0 < secs:
            s = time.time()
            code, page, _ = scrape(port)
            lat.append(time.time() - s)
            time.sleep(max(0, every - (time.time() - s)))
        used = (cpu() - c0) / (time.time() - t0) * 100
        print('exporter CPU, 1,000 memcgs, scraped every %2d s: %.2f%% of a core (%d scrapes; budget, as the collector: 0.5%%): ratio %.2f'
              % (every, used, len(lat), used / 0.5))
    vals = samples(page)
    series = sum(1 for k in vals if 'memcg="' in k)
    lat = sorted(lat)
    print('scrape of %d memcgs (%d series with a memcg label, %d KiB): median %.1f ms, max %.1f ms (budget 50 ms): ratio %.2f'
          % (vals.get('lruscope_memcgs{series="own"}', 0) + vals.get('lruscope_memcgs{series="other"}', 0),
             series, len(page) // 1024, statistics.median(lat) * 1e3, lat[-1] * 1e3, lat[-1] * 1e3 / 50))
finally:
    os.killpg(p.pid, signal.SIGTERM)
    p.wait()
EOF2
