/* placeholder */
typedef int tk_placeholder_t;
