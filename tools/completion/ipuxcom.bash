# SPDX-License-Identifier: GPL-2.0-only
# bash completion for ipuxcom(8): objects, commands, options, device
# ids and option values (--method, --cfg-hsp). The candidates come from
# the command itself (`ipuxcom __complete WORD...`, from its own tables
# and the running module's device list), so
# this file never needs to change when a command or an option is added.
# Installed by `make install` to share/bash-completion/completions/ipuxcom.

_ipuxcom()
{
	local cur=${COMP_WORDS[COMP_CWORD]} line files=
	local -a cands=()

	# "--dev=<TAB>": bash made "=" a word of its own; the value is empty
	[[ $cur == = ]] && cur=
	COMPREPLY=()
	while IFS= read -r line; do
		if [[ $line == @files ]]; then
			files=1
		else
			cands+=("$line")
		fi
	done < <("${COMP_WORDS[0]}" __complete "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)
	COMPREPLY=("${cands[@]}")
	if [[ -n $files ]]; then
		compopt -o filenames 2>/dev/null
		local IFS=$'\n'
		# shellcheck disable=SC2207 # one file name a line
		COMPREPLY+=($(compgen -f -- "$cur"))
	fi
}

complete -F _ipuxcom ipuxcom
