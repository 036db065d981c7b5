# report-screenshot: a headless Chromium screenshot of the report of
# data/antmill-report.sh on a small random regular graph (the page renders:
# a PNG of the expected size).  Not part of make check (it needs a browser);
# run it by hand from the build directory:
#
#   TK_SRCDIR=/path/to/source sh tests/cli/report-screenshot.sh [PNG]
#
# PNG (default: a temporary file) keeps the screenshot.  Skipped without
# chromium (Debian: apt-get install chromium) or gnuplot.
. "$TK_SRCDIR/tests/cli/lib.sh"

BROWSER=
for b in chromium chromium-browser google-chrome; do
    if command -v "$b" >/dev/null 2>&1; then
        BROWSER=$b
        break
    fi
done
[ -n "$BROWSER" ] || skip_all "no chromium on PATH"
command -v gnuplot >/dev/null 2>&1 || skip_all "gnuplot not found"
shot=${1:-$TMPD/report.png}

run sh "$TK_SRCDIR/data/antmill-report.sh" "$TMPD/report" rrg n=60 d=6 -p 3 -s 2
expect_rc 0 "the report is made"
"$BROWSER" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,4000 \
    --screenshot="$shot" "file://$TMPD/report/index.html" >"$TMPD/browser.log" 2>&1
ok $? "$BROWSER --headless --screenshot exits 0" || sed 's/^/# /' "$TMPD/browser.log"
[ -s "$shot" ] && head -c 8 "$shot" | od -An -tx1 | tr -d ' \n' | grep -qx 89504e470d0a1a0a
ok $? "the screenshot is a PNG"
# Width and height from the IHDR chunk: 1280 x 4000.
dims=$(od -An -tu1 -j16 -N8 "$shot" | awk '{ print $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8 }')
[ "$dims" = "1280 4000" ]
ok $? "the screenshot is 1280x4000 ($dims)"
done_testing
