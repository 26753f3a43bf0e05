# bash completion for walktorture(1).  Everything it offers comes from
# the binary's own option tables (`walktorture options'), so it cannot
# fall behind them: commands, each command's options, the values of
# --mode and --memory, bug names for --bug and zoo-bench, suite names.
_walktorture()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local w=${COMP_WORDS[0]} cmd=${COMP_WORDS[1]} table arg

	table=$("$w" options 2>/dev/null) || return
	if ((COMP_CWORD == 1)); then
		COMPREPLY=($(compgen -W "$(cut -f1 <<<"$table" | uniq) --help --version" -- "$cur"))
		return
	fi
	# the value of the option before
	arg=$(awk -F'\t' -v c="$cmd" -v o="$prev" \
		'$1 == c && ($2 == o || $3 == o) { print $4 }' <<<"$table")
	if [[ -n $arg && $arg != - ]]; then
		case $arg in
		*'|'*)	COMPREPLY=($(compgen -W "${arg//|/ }" -- "$cur")) ;;
		NAME)	COMPREPLY=($(compgen -W "$("$w" options --bugs)" -- "$cur")) ;;
		DIR)	COMPREPLY=($(compgen -d -- "$cur")) ;;
		*FILE*|*.json|*.html|DB)
			COMPREPLY=($(compgen -f -- "$cur")) ;;
		*)	COMPREPLY=() ;;
		esac
		return
	fi
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(awk -F'\t' -v c="$cmd" '$1 == c { print $2 }' <<<"$table")" -- "$cur"))
		return
	fi
	case $cmd in
	run|nightly)
		COMPREPLY=($(compgen -W "$("$w" options --suites)" -- "$cur")
			   $(compgen -f -- "$cur")) ;;
	zoo-bench)
		COMPREPLY=($(compgen -W "$("$w" options --bugs)" -- "$cur")) ;;
	*)	COMPREPLY=($(compgen -f -- "$cur")) ;;
	esac
}
complete -F _walktorture walktorture
