. "$TK_SRCDIR/tests/cli/lib.sh"
ok 0 placeholder
done_testing
