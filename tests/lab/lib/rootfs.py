"""The lab guest's root file system for the live tests: this host's own programs, at their own
paths, on an ext4 image, so that a test script runs in the guest as it runs here.

What goes in: every file of the packages in PACKAGES (less docs, man pages and locales), the
shared libraries their programs load (ldd), the dynamic loader's cache, the Prometheus the
export test unpacks into the cache, and the top-level links of a merged /usr. The image is
cached under $LRS_CACHE/lab/rootfs by a digest of that file list (paths, sizes, times): a host
whose packages changed builds a new one, and an unchanged host reuses it. The guest opens it
with snapshot=on: nothing it writes reaches the cached image.
"""

import hashlib
import os
import shutil
import subprocess
import tempfile

import lab

# What the live tests run: the shell and its tools, Python, tmux and terminfo, BPF tools,
# an X server and xdotool for the GUI, fonts for SDL_ttf, ss for the exporter's socket, drgn
# for `lruscope walk` on the guest's own kernel.
PACKAGES = """bash dash coreutils grep sed mawk findutils procps util-linux mount diffutils
debianutils tar gzip zstd iproute2 libc-bin tmux ncurses-base python3 python3-minimal
python3.11-minimal libpython3.11-minimal libpython3.11-stdlib bpftool bpftrace xvfb
xserver-common x11-xkb-utils xkb-data xauth xdotool libxdo3 fonts-dejavu-core
python3-drgn""".split()
SKIP_PREFIXES = ("/usr/share/doc/", "/usr/share/man/", "/usr/share/info/", "/usr/share/locale/",
                 "/usr/share/lintian/", "/usr/lib/python3.11/test/", "/usr/lib/python3.11/idlelib/",
                 "/usr/lib/python3.11/tkinter/", "/usr/lib/python3.11/ensurepip/")
# commands Debian reaches through /etc/alternatives (the links are followed to their end)
ALTERNATIVES = ["/usr/bin/awk", "/usr/bin/nawk", "/usr/bin/pager", "/usr/bin/which"]
ETC_FILES = ["/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/passwd", "/etc/group",
             "/etc/nsswitch.conf"]
MERGED_USR = ["/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32"]


def package_files(packages):
    """The paths of the packages' files that exist here (regular files and links)."""
    r = subprocess.run(["dpkg", "-L"] + packages, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    missing = [line for line in r.stderr.splitlines() if "is not installed" in line]
    if missing:
        raise lab.LabError("the live guest needs packages this host lacks (make deps): %s"
                           % "; ".join(missing))
    out = set()
    for p in r.stdout.splitlines():
        if not p.startswith("/") or p.startswith(SKIP_PREFIXES):
            continue
        if os.path.islink(p) or os.path.isfile(p):
            out.add(p)
    return out


def is_elf(path):
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


def library_closure(paths):
    """Every shared library (and its links) that the ELF files among paths load: programs,
    and Python's extension modules (not executable, loaded all the same)."""
    libs = set()
    elfs = [p for p in paths if not os.path.islink(p) and is_elf(p) and (
        os.access(p, os.X_OK) or p.endswith(".so") or ".so." in os.path.basename(p))]
    for i in range(0, len(elfs), 200):
        r = subprocess.run(["ldd"] + elfs[i:i + 200], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True)
        for line in r.stdout.splitlines():
            w = line.split()
            path = w[2] if "=>" in w and len(w) >= 3 else (w[0] if w else "")
            if path.startswith("/") and os.path.exists(path):
                libs.add(path)
                libs.add(os.path.realpath(path))
    return libs


def extra_files():
    """Prometheus as fetch-prometheus.sh unpacked it, and the loader's configuration."""
    out = {p for p in ETC_FILES + ALTERNATIVES if os.path.exists(p)}
    prom = os.path.join(lab.CACHE, "prometheus")
    for dirpath, _, names in os.walk(prom):
        out.update(os.path.join(dirpath, n) for n in names)
    return out


def canonical(path):
    """path with its directories resolved (/bin/bash is /usr/bin/bash on a merged /usr), its
    last part kept, so that a link stays a link."""
    return os.path.join(os.path.realpath(os.path.dirname(path)), os.path.basename(path))


def with_link_targets(paths):
    """paths, and what each link among them points to, down the chain."""
    out, todo = set(), list(paths)
    while todo:
        p = canonical(todo.pop())
        if p in out:
            continue
        out.add(p)
        if os.path.islink(p):
            t = os.path.join(os.path.dirname(p), os.readlink(p))
            todo.append(os.path.normpath(t))
    # directories come with their files; the merged-/usr links are made apart
    return {p for p in out if os.path.lexists(p) and p not in MERGED_USR and
            (os.path.islink(p) or not os.path.isdir(p))}


def file_list(programs=()):
    """Every file of the image; programs: more ELF files (not in the image) whose libraries
    go in, as the binary under test's do."""
    files = package_files(PACKAGES)
    files |= extra_files()
    files |= library_closure(files | set(programs))
    return sorted(with_link_targets(files))


def digest(files):
    h = hashlib.sha256()
    for p in files:
        st = os.lstat(p)
        h.update(("%s %d %d\n" % (p, st.st_size, int(st.st_mtime))).encode())
    return h.hexdigest()[:16]


def stage(files, root):
    """Hard links of files under root at their own paths (copies across file systems), links
    as links; the merged-/usr top-level links as this host has them."""
    size = 0
    os.makedirs(os.path.join(root, "usr"), exist_ok=True)
    for p in MERGED_USR:
        if os.path.islink(p):
            os.symlink(os.readlink(p), root + p)
    for p in files:
        dst = root + p
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if os.path.lexists(dst):
            continue
        if os.path.islink(p):
            os.symlink(os.readlink(p), dst)
            continue
        try:
            os.link(p, dst)
        except OSError:
            shutil.copy2(p, dst)
        size += os.path.getsize(p)
    for d in ("proc", "sys", "dev", "tmp", "run", "mnt", "var/tmp", "root"):
        os.makedirs(os.path.join(root, d), exist_ok=True)
    return size


def image(programs=()):
    """The cached root image's path, built when this host's file list changed; programs as
    for file_list()."""
    files = file_list(programs)
    base = os.path.join(lab.CACHE, "lab", "rootfs")
    os.makedirs(base, exist_ok=True)
    img = os.path.join(base, "root-%s.img" % digest(files))
    if os.path.exists(img):
        return img
    for old in os.listdir(base):  # one image at a time: a few hundred MB each
        if old.endswith(".img"):
            os.unlink(os.path.join(base, old))
    lab.log("building the live guest's root image from %d host files" % len(files))
    tmp = tempfile.mkdtemp(prefix="rootfs.", dir=base)
    try:
        size = stage(files, os.path.join(tmp, "root"))
        mib = size * 13 // 10 // (1 << 20) + 128
        part = img + ".part"
        subprocess.run(["mkfs.ext4", "-q", "-F", "-E", "root_owner=0:0", "-d",
                        os.path.join(tmp, "root"), part, "%dM" % mib], check=True,
                       stdout=subprocess.DEVNULL)
        os.rename(part, img)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    lab.log("root image %s (%d MiB)" % (img, os.path.getsize(img) >> 20))
    return img


if __name__ == "__main__":
    print(image())
