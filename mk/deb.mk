# make deb: the Debian package (debian/, debhelper), built by mk/deb.sh from a copy of
# the files git tracks (never this tree's build/), then checked by lintian: any E: or W:
# fails it. Writes $(DEB_DIR)/lruscope_VERSION_ARCH.deb. GUI=0: the pkg.lruscope.nogui
# build profile (debian/README.source), into $(BUILD)/deb-nogui. Needs no root, only
# the build dependencies (make deps). Included by the Makefile.
DEB_DIR := $(BUILD)/deb$(if $(filter 0,$(GUI)),-nogui)

.PHONY: deb

deb:
	$(Q)mk/deps.sh --check-deb $(if $(filter 0,$(GUI)),--no-gui)
	$(Q)mk/deb.sh $(abspath $(DEB_DIR)) $(GUI)
