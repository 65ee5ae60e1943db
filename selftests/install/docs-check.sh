#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Documentation and packaging consistency (make check-install, part of
# make check), as TAP:
#  - every object and command of the ipuxcom command (from `ipuxcom help`
#    and each object's --help, i.e. tools/main.c's table) answers --help
#    and `ipuxcom help OBJECT [COMMAND]` with status 0 and its own usage
#    line, rejects an unknown command with status 2, and has its entry
#    ".B ipuxcom OBJECT [COMMAND]" in man/ipuxcom.8, which names every
#    option of its --help (long or short form; --help, --json and --pretty,
#    which the COMMAND LINE section documents for all, aside);
#    every such entry of the man page is a real command;
#  - man/ipuxcom.8 documents the exit statuses 0, 1 and 2; both man pages
#    format without a groff warning; man/libipuxcom.3 has a section per
#    public header (libuser/include/*.h);
#  - modprobe.d/ipuxcom.conf documents every module parameter of every
#    module of Kbuild (module_param*() in its sources) with a commented
#    example, and sets none;
#  - dkms.conf builds exactly Kbuild's modules; the udev rule gives
#    /dev/ipuxcom mode 0660 to group ipuxcom and nothing to others; the
#    sysusers.d file creates that group.
#
# Usage: selftests/install/docs-check.sh
# Environment: B (build directory, default build): runs $B/ipuxcom
set -uo pipefail
# (no "printf | grep -q" below: with pipefail, grep -q's early exit can
# make printf die of SIGPIPE and the pipeline fail though grep matched;
# the strings go to grep as here-strings instead)

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
tool=${B:-build}/ipuxcom
man8=man/ipuxcom.8 man3=man/libipuxcom.3

# shellcheck source=selftests/install/tap-lib.sh
. "$top/selftests/install/tap-lib.sh"

if [ ! -x "$tool" ]; then
	echo "1..1"
	echo "not ok 1 $tool not built (make tools)"
	exit 1
fi

# The man page's ".B ipuxcom ..." entry lines, font escapes removed:
# "ipuxcom dev show [ID] [-j|--json]".
man_entries=$(sed -n 's/^\.B ipuxcom /ipuxcom /p' "$man8" |
	sed -e 's/\\f[BIRP]//g' -e 's/\\-/-/g' -e 's/\\(em/-/g')

# in_man OBJECT [COMMAND]: the man page has that entry.
in_man() {
	grep -qE "^ipuxcom $*( |$)" <<<"$man_entries"
}

# man_entry OBJECT [COMMAND]: the source of that entry, from its ".B ipuxcom"
# line to the next entry or section, font escapes removed.
man_entry() {
	sed -e 's/\\f[BIRP]//g' -e 's/\\-/-/g' "$man8" | awk -v want="ipuxcom $*" '
		/^\.(TP|SS|SH)/ { on = 0 }
		index($0, ".B " want) == 1 && (length($0) == length(want) + 3 ||
			substr($0, length(want) + 4, 1) == " ") { on = 1 }
		on'
}

# help_of ARGS...: problems with `ipuxcom ARGS --help`, `ipuxcom help ARGS`,
# and long options of the help missing from the man page entry (--help, --json
# and --pretty, which every command has, aside).
help_of() {
	local out out2 rc=0 rc2=0 entry
	out=$("$tool" "$@" --help 2>&1) || rc=$?
	out2=$("$tool" help "$@" 2>&1) || rc2=$?
	[ "$rc" -eq 0 ] || echo "'ipuxcom $* --help' exits $rc"
	[ "$rc2" -eq 0 ] || echo "'ipuxcom help $*' exits $rc2"
	case $out in "Usage: ipuxcom $*"*) ;; *) echo "'ipuxcom $* --help' does not start with 'Usage: ipuxcom $*'" ;; esac
	[ "$out" = "$out2" ] || echo "'ipuxcom help $*' differs from 'ipuxcom $* --help'"
	entry=$(man_entry "$@")
	[ -n "$entry" ] || return 0
	# "  -o, --output FILE  ..." -> "-o --output"; "      --dev ID ..." -> "- --dev"
	printf '%s\n' "$out" | sed -n '/^Options:/,$p' |
		sed -nE 's/^  (-[a-zA-Z0-9])?,? *(--[a-z0-9][a-z0-9-]*).*/\1 \2/p' |
		while read -r short long; do
			[ -n "$long" ] || { long=$short short=; }
			case $long in --help | --json | --pretty) continue ;; esac
			grep -qE -- "$long([^a-z0-9-]|\$)" <<<"$entry" && continue
			[ -n "$short" ] && grep -qE -- "(^|[^a-z0-9-])$short([^a-z0-9-]|\$)" <<<"$entry" &&
				continue
			echo "option $long${short:+ ($short)} of 'ipuxcom $*' is not in its $man8 entry"
		done
}

# The objects and, for each, its commands ('' for an object that is its
# own command).
main_help=$("$tool" --help)
objects=$(printf '%s\n' "$main_help" | sed -n '/^Objects:/,/^$/p' | awk 'NR > 1 && NF { print $1 }' |
	grep -vx help)
problems=
[ -n "$objects" ] || problems="no objects in 'ipuxcom --help'"
rc=0
"$tool" >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || problems+="'ipuxcom' with no object exits $rc, not 2"$'\n'
rc=0
"$tool" no-such-object >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || problems+="'ipuxcom no-such-object' exits $rc, not 2"$'\n'
result "ipuxcom --help lists $(printf '%s\n' "$objects" | wc -l) objects; no or an unknown object exits 2" "$problems"

real_cmds=
for obj in $objects; do
	ohelp=$("$tool" "$obj" --help 2>&1)
	cmds=$(printf '%s\n' "$ohelp" | sed -n '/^Commands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }')
	if [ -z "$cmds" ]; then
		# The object is the command (info, load, monitor, frames).
		problems=$(help_of "$obj")
		in_man "$obj" || problems+=$'\n'"no '.B ipuxcom $obj' entry in $man8"
		result "ipuxcom $obj: --help, help $obj, man page entry" "$(printf '%s' "$problems" | sed '/^$/d')"
		real_cmds+="$obj"$'\n'
		continue
	fi
	problems=
	case $ohelp in "Usage: ipuxcom $obj COMMAND"*) ;; *) problems="'ipuxcom $obj --help' has no usage line" ;; esac
	rc=0
	"$tool" "$obj" no-such-command >/dev/null 2>&1 || rc=$?
	[ "$rc" -eq 2 ] || problems+=$'\n'"'ipuxcom $obj no-such-command' exits $rc, not 2"
	grep -qE "^\.SS $obj( |$)" "$man8" || problems+=$'\n'"no '.SS $obj' section in $man8"
	result "ipuxcom $obj: command list, unknown command exits 2, man section" \
		"$(printf '%s' "$problems" | sed '/^$/d')"
	for cmd in $cmds; do
		problems=$(help_of "$obj" "$cmd")
		in_man "$obj $cmd" || problems+=$'\n'"no '.B ipuxcom $obj $cmd' entry in $man8"
		result "ipuxcom $obj $cmd: --help, help $obj $cmd, man page entry" \
			"$(printf '%s' "$problems" | sed '/^$/d')"
		real_cmds+="$obj $cmd"$'\n'
	done
done

# Every entry of the man page is a real object or command ("help" aside).
problems=
while read -r _ a b _; do
	if [ -z "$a" ] || [ "$a" = help ]; then continue; fi
	printf '%s' "$real_cmds" | grep -qxF "$a $b" || printf '%s' "$real_cmds" | grep -qxF "$a" ||
		problems+="$man8 documents 'ipuxcom $a $b', which ipuxcom does not have"$'\n'
done <<<"$man_entries"
result "every '.B ipuxcom ...' entry of $man8 is a command of ipuxcom" "$problems"

problems=
sect=$(sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' "$man8")
for code in 0 1 2; do
	grep -qx "\.B $code" <<<"$sect" || problems+="EXIT STATUS lacks $code"$'\n'
done
grep -q "Exit status: 0 success, 1 failure, 2 usage error" <<<"$main_help" ||
	problems+="'ipuxcom --help' does not state the exit statuses"$'\n'
result "exit statuses 0, 1, 2 in $man8 and ipuxcom --help" "$problems"

for page in "$man8" "$man3"; do
	if command -v groff >/dev/null; then
		problems=$(groff -man -ww -z -t "$page" 2>&1)
		result "$page formats without groff warnings" "$problems"
	else
		ok "$page formats without groff warnings # SKIP no groff (groff-base)"
	fi
done

problems=
for h in libuser/include/*.h; do
	grep -qE "^\.SS <${h##*/}>" "$man3" || problems+="no '.SS <${h##*/}>' section in $man3"$'\n'
done
grep -qE '^\.SS <linux/ipuxcom.h>' "$man3" || problems+="no '.SS <linux/ipuxcom.h>' section"$'\n'
for s in CONVENTIONS "API OVERVIEW"; do
	grep -qx "\.SH $s" "$man3" || problems+="no '$s' section in $man3"$'\n'
done
result "$man3 has a section per public header and the error conventions" "$problems"

# Kbuild: "obj-m += a.o b.o" and "a-y := x.o y.o" -> "a: x.c y.c".
kbuild_modules=$(sed -n 's/^obj-m[[:space:]]*+\{0,1\}:\{0,1\}=//p' Kbuild | tr ' ' '\n' |
	sed -n 's/\.o$//p' | sort -u)
mod_list=$(printf '%s\n' "$kbuild_modules" | paste -sd,)
problems=
for mod in $kbuild_modules; do
	srcs=$(awk -v m="$mod" '
		$1 == m "-y" || $1 == m "-objs" { go = 1 }
		go { for (i = 1; i <= NF; i++) if ($i ~ /\.o$/) print $i
		     if ($NF != "\\") go = 0 }' Kbuild | sed 's/\.o$/.c/')
	[ -n "$srcs" ] || srcs=$mod.c
	# shellcheck disable=SC2086
	params=$(cat $srcs 2>/dev/null | tr -d '\n' | grep -oE 'module_param(_named|_cb|_array|_string|_unsafe)?\([[:space:]]*[A-Za-z_][A-Za-z0-9_]*' |
		sed 's/.*(\s*//' | sort -u)
	for p in $params; do
		grep -qE "^#[[:space:]]+$p=" modprobe.d/ipuxcom.conf ||
			problems+="$mod parameter '$p' not described as '#   $p=...' in modprobe.d/ipuxcom.conf"$'\n'
		grep -qE "^#options $mod( .*)? $p=" modprobe.d/ipuxcom.conf ||
			problems+="no commented example '#options $mod $p=...' in modprobe.d/ipuxcom.conf"$'\n'
	done
done
grep -nE '^[[:space:]]*(options|install|remove|blacklist|softdep|alias)[[:space:]]' modprobe.d/ipuxcom.conf |
	sed 's/^/active line (the file must only hold commented examples): /' >"${TMPDIR:-/tmp}/docs-check.$$" || true
problems+=$(cat "${TMPDIR:-/tmp}/docs-check.$$")
rm -f "${TMPDIR:-/tmp}/docs-check.$$"
result "modprobe.d/ipuxcom.conf documents every parameter of $mod_list (commented examples only)" \
	"$(printf '%s' "$problems" | sed '/^$/d')"

problems=
dkms_mods=$(sed -n 's/^BUILT_MODULE_NAME\[[0-9]*\]="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' dkms.conf | sort)
[ "$dkms_mods" = "$kbuild_modules" ] ||
	problems+="dkms.conf builds '$(printf '%s\n' "$dkms_mods" | paste -sd,)', Kbuild '$mod_list'"$'\n'
[ "$(grep -c '^DEST_MODULE_LOCATION\[' dkms.conf)" -eq "$(echo "$kbuild_modules" | wc -l)" ] ||
	problems+="not one DEST_MODULE_LOCATION per module"$'\n'
grep -qx 'PACKAGE_NAME="ipuxcom"' dkms.conf || problems+="PACKAGE_NAME is not ipuxcom"$'\n'
# shellcheck disable=SC2016 # dkms.conf's own variables, not ours
grep -q '^MAKE\[0\]=.*-C ${kernel_source_dir} M=' dkms.conf ||
	problems+="MAKE[0] does not build with kbuild against \${kernel_source_dir}"$'\n'
result "dkms.conf builds exactly Kbuild's modules ($mod_list)" "$problems"

problems=
rules=$(grep -vE '^[[:space:]]*(#|$)' udev/60-ipuxcom.rules)
[ "$rules" = 'SUBSYSTEM=="misc", KERNEL=="ipuxcom", GROUP="ipuxcom", MODE="0660"' ] ||
	problems+="unexpected rules: $rules"$'\n'
grep -qx 'g ipuxcom - -' sysusers.d/ipuxcom.conf || problems+="sysusers.d/ipuxcom.conf does not create group ipuxcom"$'\n'
result "udev rule: /dev/ipuxcom 0660 root:ipuxcom, no world access; sysusers.d creates the group" "$problems"

echo "1..$n"
[ "$nfail" -eq 0 ]
