#!/bin/sh
# ci/check-plugins.sh: lint the plugin directory, then run the conformance
# suite for every host-volume and secrets plugin. JUnit reports go to
# $REPORTS; exit 1 if anything failed. A plugin whose suite needs arguments
# (a secrets plugin's --path and --env) gets them from
# ci/plugctl-test/<family>/<name>.sh, which sets them with `set -- ...`.
set -u
dir=${PLUGIN_DIR:-plugins}
reports=${REPORTS:-reports}
mkdir -p "$reports"
status=0

plugctl validate "$dir" --strict --format junit >"$reports/validate.xml" || status=1

for family in host-volume secrets; do
	for plugin in "$dir/$family"/*; do
		if [ ! -f "$plugin" ] || [ ! -x "$plugin" ]; then
			continue
		fi
		name=${plugin##*/}
		set --
		extra=ci/plugctl-test/$family/$name.sh
		# shellcheck source=/dev/null
		if [ -f "$extra" ]; then . "./$extra"; fi
		plugctl --plugin-dir "$dir" test "$family" "$name" --format junit "$@" \
			>"$reports/test-$family-$name.xml" || status=1
	done
done
exit "$status"
