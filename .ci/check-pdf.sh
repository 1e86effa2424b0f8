#!/bin/sh
# Checks an exported PDF with poppler's tools, the way a printer driver or viewer sees it:
#   .ci/check-pdf.sh FILE.pdf [TEXT...]
# - pdfinfo reads it and it has at least one page;
# - every font is embedded (pdffonts "emb" = yes) and subset ("sub" = yes);
# - pdftotext finds each TEXT given (e.g. a unit name such as "Sturmgeschütz III");
# - no word's box, as poppler measures it, comes within 5 mm of the paper's edge, where
#   many printers cannot print (a cross-check of tests/it/export_matrix.rs by another reader);
# - the document asks the print dialog for actual size (/ViewerPreferences /PrintScaling
#   /None), and pdftotext finds the scale bar's "print at 100 %" on a sheet.
#   A print shop's card pages (a TrimBox inside the page) bleed to the edge: their words are
#   checked 6 mm from it (3 mm of bleed and 3 mm of safe zone) instead.
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

if ! LC_ALL=C grep -aq '/PrintScaling */None' "$pdf"; then
    echo "check-pdf: $pdf does not ask to print at actual size (/PrintScaling /None)" >&2
    fail=1
fi
# A print shop's pages: the TrimBox differs from the MediaBox.
edge=14.17
trim=$(pdfinfo -box "$pdf" | sed -n 's/^TrimBox: *//p' | head -n 1)
media=$(pdfinfo -box "$pdf" | sed -n 's/^MediaBox: *//p' | head -n 1)
if [ -n "$trim" ] && [ "$trim" != "$media" ]; then
    edge=16.9
else
    case $text in
        *"print at 100 %"*) ;;
        *) echo "check-pdf: no 'print at 100 %' scale bar in $pdf" >&2; fail=1 ;;
    esac
fi

# 5 mm = 14.17 pt (6 mm = 17.01 pt, less a rounding). pdftotext -bbox prints one <page width= height=> per
# page and one <word xMin= yMin= xMax= yMax=> per word, in points from the top-left corner.
near_edge=$(pdftotext -bbox "$pdf" - | awk -v edge="$edge" '
    function attr(name,   m) { return match($0, name "=\"[0-9.]+\"") ? substr($0, RSTART + length(name) + 2, RLENGTH - length(name) - 3) + 0 : -1 }
    /<page / { w = attr("width"); h = attr("height"); page++ }
    /<word / {
        x0 = attr("xMin"); y0 = attr("yMin"); x1 = attr("xMax"); y1 = attr("yMax")
        if (x0 < edge || y0 < edge || x1 > w - edge || y1 > h - edge) {
            word = $0; sub(/.*">/, "", word); sub(/<\/word>.*/, "", word)
            printf "page %d: \"%s\" at %.1f,%.1f-%.1f,%.1f pt\n", page, word, x0, y0, x1, y1
        }
    }')
if [ -n "$near_edge" ]; then
    echo "check-pdf: text within $edge pt of the paper's edge in $pdf:" >&2
    printf '%s\n' "$near_edge" | head -n 5 >&2
    fail=1
fi

if [ "$fail" -eq 0 ]; then
    echo "check-pdf: $pdf ok — $pages page(s), $size, $(printf '%s\n' "$fonts" | wc -l) embedded subset font(s)"
fi
exit "$fail"
