import {RE2JS} from "re2js";
import type {RegExpEngine, RegExpLike} from "ajv/dist/types/index.js";
import {quoteValue} from "./validation.ts";

// Schema `pattern` and `patternProperties` are the client's regular expressions. V8's backtracking engine spent
// 21 s of the engine's one thread on `^((.|\s)+)+~$` against a model reply, stalling every other client. RE2
// matches in time linear in the input: the same pattern on a 1,000,000-character string took 0.6 ms with re2js, and
// the slowest pattern measured (a 26-way alternation repeated {1,1000}) 0.66 s on 100,000
// characters, where a model reply is at most the context window. RE2 has no backreferences and no lookaround, so
// a pattern using them is refused with a 400 rather than run on the backtracking engine.

/** A pattern the linear-time engine cannot run; the schema reader answers it with a 400 naming the pattern. */
export class UnsupportedPatternError extends Error {
    public constructor(pattern: string, reason: string) {
        super(`its pattern ${quoteValue(pattern)} cannot be used: this server runs schema patterns on a linear-time ` +
            `engine (RE2 syntax), which has no backreferences and no lookahead or lookbehind (${reason})`);
        this.name = "UnsupportedPatternError";
    }
}

/**
 * ECMAScript escapes RE2 spells differently: `\uXXXX` and `\u{X...}` become `\x{...}`. Every other escape is
 * copied as it is, so `\\u0041` (an escaped backslash, then "u0041") stays literal.
 */
export function toRe2Syntax(pattern: string): string {
    let out = "";
    for (let index = 0; index < pattern.length; index++) {
        const char = pattern[index];
        if (char !== "\\" || index + 1 >= pattern.length) {
            out += char;
            continue;
        }
        const unicode = /^u(?:([0-9a-fA-F]{4})|\{([0-9a-fA-F]{1,6})\})/.exec(pattern.slice(index + 1, index + 10));
        if (unicode != null) {
            out += `\\x{${unicode[1] ?? unicode[2]}}`;
            index += unicode[0].length;
        } else {
            out += char + pattern[index + 1];
            index++;
        }
    }
    return out;
}

/**
 * ajv's `code.regExp` engine (ajv calls it with the pattern and its "u" flag; RE2 reads Unicode code points
 * either way). ajv keys its compiled patterns by `toString()`, so each one names its own pattern.
 */
export const linearRegExp: RegExpEngine = Object.assign((pattern: string): RegExpLike => {
    let compiled: RE2JS;
    try {
        compiled = RE2JS.compile(toRe2Syntax(pattern));
    } catch (error) {
        throw new UnsupportedPatternError(pattern, (error as Error).message);
    }
    const regExp: RegExpLike & {toString(): string} = {test: (text: string) => compiled.test(text), toString: () => `re2js:${pattern}`};
    return regExp;
}, {
    // What ajv would write into standalone validation code; this server compiles schemas in memory only.
    code: "re2js"
});
