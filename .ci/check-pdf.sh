#!/bin/sh
# Checks an exported PDF with poppler's tools, the way a printer driver or viewer sees it:
#   .ci/check-pdf.sh FILE.pdf [TEXT...]
# - pdfinfo reads it and it has at least one page;
# - every font is embedded (pdffonts "emb" = yes) and subset ("sub" = yes);
# - pdftotext finds each TEXT given (e.g. a unit name such as "Sturmgeschütz III").
# Needs poppler-utils (apt-get install -y poppler-utils). Exit 0 when all checks pass.
set -eu

if [ $# -lt 1 ]; then
    echo "usage: $0 FILE.pdf [TEXT...]" >&2
    exit 2
fi
pdf=$1
shift
for tool in pdfinfo pdffonts pdftotext; do
    command -v "$tool" >/dev/null 2>&1 || {
        echo "check-pdf: $tool not found (apt-get install -y poppler-utils)" >&2
        exit 2
    }
done
[ -f "$pdf" ] || { echo "check-pdf: no such file: $pdf" >&2; exit 2; }

fail=0
info=$(pdfinfo "$pdf") || { echo "check-pdf: pdfinfo cannot read $pdf" >&2; exit 1; }
pages=$(printf '%s\n' "$info" | awk '/^Pages:/ { print $2 }')
if [ -z "$pages" ] || [ "$pages" -lt 1 ]; then
    echo "check-pdf: $pdf has no pages" >&2
    fail=1
fi
size=$(printf '%s\n' "$info" | sed -n 's/^Page size: *//p' | head -n 1)

# pdffonts prints two header lines, then one line per font; the columns emb, sub and uni
# come before the object number and generation at the end of each line.
fonts=$(pdffonts "$pdf" | tail -n +3)
if [ -z "$fonts" ]; then
    echo "check-pdf: $pdf uses no fonts" >&2
    fail=1
fi
bad=$(printf '%s\n' "$fonts" | awk 'NF >= 5 && ($(NF-4) != "yes" || $(NF-3) != "yes") { print $1 }')
if [ -n "$bad" ]; then
    echo "check-pdf: fonts not embedded as subsets in $pdf: $bad" >&2
    fail=1
fi

text=$(pdftotext -enc UTF-8 "$pdf" - | tr -s ' \n' '  ')
for wanted in "$@"; do
    case $text in
        *"$wanted"*) ;;
        *) echo "check-pdf: '$wanted' not found in the text of $pdf" >&2; fail=1 ;;
    esac
done

if [ "$fail" -eq 0 ]; then
    echo "check-pdf: $pdf ok — $pages page(s), $size, $(printf '%s\n' "$fonts" | wc -l) embedded subset font(s)"
fi
exit "$fail"
