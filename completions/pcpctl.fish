# SPDX-License-Identifier: GPL-2.0-or-later
# fish completion for pcpctl(8)
#
# One function reads the line as the bash completion does: options may stand
# before or after the command (popt reorders them), each command is offered
# only the options it accepts, and the column names of -o/--output and the
# zone names of --zone complete as comma lists.

# The last item of the comma list in $argv[1] completed from the words after
# it, leaving out the items already listed; --plus first lets the list start
# with +.  Matching ignores case, as pcpctl does.
function __pcpctl_comma_list
    set -l tok $argv[1]
    set -e argv[1]
    set -l allow_plus 0
    if test "$argv[1]" = --plus
        set allow_plus 1
        set -e argv[1]
    end
    set -l item (string replace -r '.*,' '' -- $tok)
    set -l head (string replace -r '[^,]*$' '' -- $tok)
    set -l plus ''
    if test -z "$head" -a $allow_plus = 1; and string match -q -- '+*' $item
        set plus +
        set item (string sub -s 2 -- $item)
    end
    set -l listed (string split , -- (string replace -r '^\+' '' -- $head))
    for w in $argv
        contains -- $w $listed; and continue
        string match -qir -- '^'(string escape --style=regex -- $item) $w; and echo $plus$head$w
    end
end

function __pcpctl_complete
    set -l words (commandline -opc)
    set -e words[1]
    set -l cur (commandline -ct)

    set -l show_cols NODE ZONE CPU COUNT HIGH BATCH HIGH_MIN HIGH_MAX
    set -l summary_cols NODE ZONE CPUS PAGES MAXCOUNT MIB BATCH HIGH FREE_PCT MANAGED \
        BATCH_MIN BATCH_MAX HIGH_LO HIGH_HI
    set -l zones DMA DMA32 Normal HighMem Movable Device
    set -l commands show status set reset rollback sweep compare plot export help
    # Options that take an argument, as they can be spelt in a separate word.
    set -l with_arg -o --output --node --zone --cpu --sysroot --batch --fraction --tasks \
        --duration --warmup --runs --metric --metric-json --metric-unit --better --csv --plot \
        --workload-log --user --netns --with-batch --with-fraction --label --precision \
        --max-duration --count

    # The command, whether -s/--summary or --interval was given, and the
    # words that are no option (help takes one command).
    set -l cmd ''
    set -l summary 0
    set -l interval 0
    set -l skip 0
    set -l plain 0
    set -l i 0
    for w in $words
        set i (math $i + 1)
        if test $skip = 1
            set skip 0
            continue
        end
        switch $w
            case '--'
                if test "$cmd" = sweep
                    # sweep's COMMAND completes as a command line of its own.
                    complete -C (string join ' ' -- (string escape -- $words[(math $i + 1)..-1] $cur))
                    return
                end
                break
            case --summary
                set summary 1
            case --interval
                set interval 1
                set skip 1
            case '--interval=*'
                set interval 1
            case '--*=*'
            case $with_arg
                set skip 1
            case '--*'
            case '-*'
                # Bundled short options such as -sJ, or -Jo followed by its LIST.
                string match -qr -- '^-[JrPnVh]*s' $w; and set summary 1
                string match -qr -- '^-[JrPnsVh]*o$' $w; and set skip 1
            case '*'
                test -z "$cmd"; and set cmd $w
                set plain (math $plain + 1)
        end
    end

    # An option's argument, in the next word or after "=" (then kept in front).
    set -l prev ''
    set -q words[1]; and set prev $words[-1]
    set -l pre ''
    if string match -qr -- '^--[a-z-]+=' $cur
        set prev (string replace -r '=.*' '' -- $cur)
        set pre $prev=
        set cur (string replace -r '^[^=]*=' '' -- $cur)
    end
    set -l values
    switch $prev
        case -o --output
            # export and plot write a file; show takes columns.
            if contains -- "$cmd" export plot
                set values (__fish_complete_path $cur)
            else if test $summary = 1
                set values (__pcpctl_comma_list $cur --plus $summary_cols)
            else
                set values (__pcpctl_comma_list $cur --plus $show_cols)
            end
        case --zone
            set values (__pcpctl_comma_list $cur $zones)
        case --sysroot
            set values (__fish_complete_directories $cur)
        case --csv --plot --workload-log
            set values (__fish_complete_path $cur)
        case --user
            set values (__fish_complete_users | string replace -r '\t.*' '' | string match -- "$cur*")
        case --better
            set values (string match -- "$cur*" lower higher)
        case --netns
            set values (ip netns list 2>/dev/null | string replace -r ' .*' '' | string match -- "$cur*")
        case --node --cpu --batch --fraction --tasks --duration --warmup --runs --metric --metric-json --metric-unit \
            --interval --count --label --with-batch --with-fraction --precision --max-duration
            # Numbers, lists and a regular expression: nothing to offer.
            return
        case '*'
            test -n "$pre"; and return
            set values none
    end
    if test "$values" != none
        for v in $values
            echo $pre$v
        end
        return
    end

    set -l common -J --json --sysroot -h --help -V --version
    set -l opts
    switch $cmd
        case show
            if test $interval = 1
                # --interval prints fixed columns as a table or JSON.
                set opts -n --noheadings --node --zone --cpu -s --summary --per-cpu --count
            else
                set opts -r --raw -P --pairs -o --output --output-all -n --noheadings --node \
                    --zone --cpu -s --summary --per-cpu --interval --count
            end
        case status
        case rollback
            set opts --discard
        case set
            set opts --batch --fraction --dry-run --persist --persist-only
        case reset
            set opts --dry-run --persist --persist-only
        case compare
            set opts --label --csv --partial
        case plot
            # An SVG file only: no --json.
            set common --sysroot -h --help -V --version
            set opts -o --output --label
        case sweep
            set opts --batch --fraction --tasks --duration --warmup --runs --metric --metric-last \
                --metric-json --metric-unit --better --csv --plot --workload-log --user --netns \
                --with-batch --with-fraction --precision --max-duration --dry-run
        case export
            # Prometheus text only: no --json.
            set common --sysroot -h --help -V --version
            set opts -o --output --per-cpu
        case help
            # The help of pcpctl or of one command: printed text, no --json.
            set common --sysroot -h --help -V --version
            if not string match -q -- '-*' $cur
                # "help" itself is the one word so far: one command to name
                test $plain = 1; and printf '%s\n' $commands
                return
            end
        case ''
            if not string match -q -- '-*' $cur
                printf '%s\n' $commands
                return
            end
            # No command yet: options may come first, so offer all of them.
            set opts -r --raw -P --pairs -o --output --output-all -n --noheadings --node \
                --zone --cpu -s --summary --per-cpu --interval --count --batch --fraction \
                --dry-run --persist --persist-only --discard --tasks --duration --warmup --runs \
                --metric --metric-last --metric-json --metric-unit --better --csv --plot \
                --workload-log --user --netns --with-batch --with-fraction --label --precision \
                --max-duration --partial
        case '*'
            return
    end
    if string match -q -- '-*' $cur
        for o in $common $opts
            string match -q -- "$cur*" $o; and echo $o
        end
    else if contains -- $cmd compare plot
        __fish_complete_suffix .json
    end
end

complete -c pcpctl -f -a '(__pcpctl_complete)'
