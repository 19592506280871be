import {test} from "node:test";
import assert from "node:assert/strict";
import {CsvParser, formatCsv, sniffDelimiter, decodeText} from "./csv.ts";
import {parseCsv} from "../../test/support/csv.ts";

const tricky = [
    ["id", "text", "note"],
    ["1", "comma, inside", "quote \" inside"],
    ["2", "line\nbreak", "crlf\r\nbreak"],
    ["3", "", "  spaces kept  "],
    ["4", "日本語 ✓ émoji 😀", "\"starts with a quote"],
    ["5", "ends with a quote\"", ""]
];

test("RFC 4180: quoted fields hold delimiters, doubled quotes and line breaks; CRLF, LF and CR all end rows", () => {
    assert.deepEqual(parseCsv("a,b\r\n1,2\n3,4\r5,6"), [["a", "b"], ["1", "2"], ["3", "4"], ["5", "6"]]);
    assert.deepEqual(parseCsv("\"a,b\",\"say \"\"hi\"\"\",\"x\r\ny\"\r\n"), [["a,b", "say \"hi\"", "x\r\ny"]]);
    // Empty fields, a trailing delimiter, and no extra row for the final line break.
    assert.deepEqual(parseCsv(",a,\r\n\"\",,\r\n"), [["", "a", ""], ["", "", ""]]);
    // A blank line is a row of one empty field (the sheet readers skip it).
    assert.deepEqual(parseCsv("a\n\nb"), [["a"], [""], ["b"]]);
});

test("lenient where real files break the RFC: stray quotes, text after a closing quote, an unterminated quote", () => {
    assert.deepEqual(parseCsv("ab\"c,d\n"), [["ab\"c", "d"]]);
    assert.deepEqual(parseCsv("\"ab\"c,d\n"), [["abc", "d"]]);
    assert.deepEqual(parseCsv("x,\"open\nstill open"), [["x", "open\nstill open"]]);
});

test("a byte order mark is dropped from the first field only", () => {
    assert.deepEqual(parseCsv("\ufeffname,x\n\ufeffkept,1"), [["name", "x"], ["\ufeffkept", "1"]]);
});

test("the same rows come out whatever the piece boundaries: split inside quotes, doubled quotes and CR LF", () => {
    const text = formatCsv(tricky);
    const whole = parseCsv(text);
    assert.deepEqual(whole, tricky);
    for (const size of [1, 2, 3, 7]) {
        const parser = new CsvParser();
        const rows: string[][] = [];
        for (let offset = 0; offset < text.length; offset += size) rows.push(...parser.push(text.slice(offset, offset + size)));
        rows.push(...parser.end());
        assert.deepEqual(rows, tricky, `pieces of ${size}`);
    }
});

test("formatCsv quotes only what needs it and round-trips", () => {
    assert.equal(formatCsv([["a", "b,c", "d\"e", "", null, 1.5, true, " x"]]), "a,\"b,c\",\"d\"\"e\",,,1.5,true,\" x\"\r\n");
    assert.equal(formatCsv([["x"]], {bom: true}), "\ufeffx\r\n");
    assert.deepEqual(parseCsv(formatCsv(tricky, {bom: true})), tricky);
});

test("other delimiters: sniffed from the first line, and quoted text does not count", () => {
    assert.equal(sniffDelimiter("a;b;c\n1,5;2;3"), ";");
    assert.equal(sniffDelimiter("a\tb\n"), "\t");
    assert.equal(sniffDelimiter("\"x;y\",z\n"), ",");
    assert.equal(sniffDelimiter("single\n"), ",");
    assert.deepEqual(parseCsv("a;\"b;c\"\n", {delimiter: ";"}), [["a", "b;c"]]);
    assert.throws(() => new CsvParser({delimiter: "\""}), /delimiter/);
});

test("bytes: UTF-8 split inside a character, UTF-8 and UTF-16 byte order marks", async () => {
    const collect = async (chunks: Uint8Array[]) => {
        let text = "";
        for await (const piece of decodeText((async function* () {
            yield* chunks;
        })())) text += piece;
        return text;
    };
    const bytes = new TextEncoder().encode("é日😀");
    assert.equal(await collect([...bytes].map((byte) => new Uint8Array([byte]))), "é日😀");
    assert.equal(await collect([new Uint8Array([0xef, 0xbb, 0xbf, 0x61])]), "a");
    assert.equal(await collect([new Uint8Array([0xff, 0xfe, 0x61, 0x00, 0xe5, 0x65])]), "a\u65e5");
    assert.equal(await collect([new Uint8Array([0xfe, 0xff, 0x00, 0x61])]), "a");
});
