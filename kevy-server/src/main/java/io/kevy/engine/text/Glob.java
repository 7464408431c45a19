package io.kevy.engine.text;

/**
 * Redis glob-style matching ({@code stringmatchlen}): {@code *}, {@code ?}, {@code [abc]}, {@code [^a-z]},
 * and {@code \} escapes, optionally ASCII case-insensitive.
 *
 * <p>Iterative, with one backtrack point per {@code *}: O(pattern × subject) time and O(1) stack, so a 100 kB
 * pattern cannot overflow the stack or loop exponentially (Redis recurses). Thread-safe.
 */
public final class Glob {
    private Glob() {
    }

    /** True when {@code subject} matches {@code pattern}. */
    public static boolean matches(byte[] pattern, byte[] subject, boolean nocase) {
        int p = 0;
        int s = 0;
        int starP = -1;
        int starS = -1;
        int plen = pattern.length;
        int slen = subject.length;
        while (s < slen) {
            if (p < plen) {
                byte pc = pattern[p];
                if (pc == '*') {
                    while (p < plen && pattern[p] == '*') {
                        p++;
                    }
                    if (p == plen) {
                        return true;
                    }
                    starP = p;
                    starS = s;
                    continue;
                }
                int next = matchOne(pattern, p, subject[s], nocase);
                if (next >= 0) {
                    p = next;
                    s++;
                    continue;
                }
            }
            if (starP < 0) {
                return false;
            }
            p = starP;
            s = ++starS;
        }
        while (p < plen && pattern[p] == '*') {
            p++;
        }
        return p == plen;
    }

    /** True when {@code pattern} has no special characters (matches exactly one literal key). */
    public static boolean isLiteral(byte[] pattern) {
        for (byte b : pattern) {
            if (b == '*' || b == '?' || b == '[' || b == '\\') {
                return false;
            }
        }
        return true;
    }

    /**
     * Matches one subject byte against the pattern element at {@code p}.
     *
     * @return the index after the element when it matches, or -1
     */
    private static int matchOne(byte[] pat, int p, byte c, boolean nocase) {
        int plen = pat.length;
        byte pc = pat[p];
        switch (pc) {
            case '?':
                return p + 1;
            case '[': {
                int i = p + 1;
                boolean not = i < plen && pat[i] == '^';
                if (not) {
                    i++;
                }
                boolean match = false;
                while (true) {
                    if (i >= plen) {
                        i--; // unterminated class: Redis treats the end as closing it
                        break;
                    }
                    byte b = pat[i];
                    if (b == '\\' && i + 1 < plen) {
                        i++;
                        if (eq(pat[i], c, nocase)) {
                            match = true;
                        }
                    } else if (b == ']') {
                        break;
                    } else if (i + 2 < plen && pat[i + 1] == '-') {
                        int start = pat[i] & 0xff;
                        int end = pat[i + 2] & 0xff;
                        int cc = c & 0xff;
                        if (start > end) {
                            int t = start;
                            start = end;
                            end = t;
                        }
                        if (nocase) {
                            start = lower(start);
                            end = lower(end);
                            cc = lower(cc);
                        }
                        i += 2;
                        if (cc >= start && cc <= end) {
                            match = true;
                        }
                    } else if (eq(b, c, nocase)) {
                        match = true;
                    }
                    i++;
                }
                if (not) {
                    match = !match;
                }
                return match ? i + 1 : -1;
            }
            case '\\':
                if (p + 1 < plen) {
                    return eq(pat[p + 1], c, nocase) ? p + 2 : -1;
                }
                return eq(pc, c, nocase) ? p + 1 : -1;
            default:
                return eq(pc, c, nocase) ? p + 1 : -1;
        }
    }

    private static boolean eq(byte a, byte b, boolean nocase) {
        return a == b || (nocase && lower(a & 0xff) == lower(b & 0xff));
    }

    private static int lower(int c) {
        return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
    }
}
