// Reading the documentation as the docs test checks it: README.md and docs/*.md, their fenced code blocks, their
// links and image paths, and their headings as GitHub turns them into anchors.
import {readdirSync, readFileSync} from "node:fs";
import path from "node:path";
import {repoRoot} from "../ui/utils/startProcess.ts";

export type MarkdownFile = {
    /** Absolute path. */
    path: string,
    /** Relative to the repository, for messages: `docs/api.md`. */
    name: string,
    text: string
};

export type CodeBlock = {file: string, /** 1-based line of the opening fence. */ line: number, lang: string, code: string};

export const docsDir = path.join(repoRoot, "docs");

/** README.md and every page in docs/, read now. */
export function documentationFiles(): MarkdownFile[] {
    const pages = readdirSync(docsDir).filter((name) => name.endsWith(".md")).sort().map((name) => path.join(docsDir, name));
    return [path.join(repoRoot, "README.md"), ...pages].map(readMarkdown);
}

export function readMarkdown(file: string): MarkdownFile {
    return {path: file, name: path.relative(repoRoot, file), text: readFileSync(file, "utf8")};
}

const fence = /^(\s*)(```+|~~~+)\s*([\w-]*)[^\n]*$/;

/** The fenced code blocks of a file, in order. */
export function codeBlocks(file: MarkdownFile): CodeBlock[] {
    const blocks: CodeBlock[] = [];
    const lines = file.text.split("\n");
    for (let index = 0; index < lines.length; index++) {
        const opening = fence.exec(lines[index]);
        if (opening == null) continue;
        const body: string[] = [];
        let end = index + 1;
        for (; end < lines.length && !lines[end].trim().startsWith(opening[2]); end++) body.push(lines[end]);
        blocks.push({file: file.name, line: index + 1, lang: opening[3].toLowerCase(), code: body.join("\n")});
        index = end;
    }
    return blocks;
}

/** The text outside fenced code blocks (line numbers kept: blocks become empty lines). */
function withoutFences(text: string): string {
    let open: string | null = null;
    return text.split("\n").map((line) => {
        const opening = fence.exec(line);
        if (open == null && opening != null) {
            open = opening[2];
            return "";
        }
        if (open != null) {
            if (line.trim().startsWith(open)) open = null;
            return "";
        }
        return line;
    }).join("\n");
}

/** The text outside fenced code blocks and inline code spans (line numbers and columns kept). */
export function prose(text: string): string {
    return withoutFences(text).replace(/`[^`\n]*`/g, (span) => " ".repeat(span.length));
}

/** The inline code spans outside fenced code blocks. */
export function inlineCode(file: MarkdownFile): string[] {
    return [...withoutFences(file.text).matchAll(/`([^`\n]+)`/g)].map((match) => match[1]);
}

export type Link = {target: string, line: number};

/** Markdown links and images (`[text](target)`, `![alt](src)`) and HTML `<img src>` outside code. */
export function linksIn(file: MarkdownFile): Link[] {
    const links: Link[] = [];
    prose(file.text).split("\n").forEach((line, index) => {
        for (const match of line.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({target: match[1], line: index + 1});
        for (const match of line.matchAll(/<img\b[^>]*\bsrc="([^"]+)"/g)) links.push({target: match[1], line: index + 1});
    });
    return links;
}

/** The anchors GitHub gives a file's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
export function headingAnchors(text: string): Set<string> {
    const anchors = new Set<string>();
    const seen = new Map<string, number>();
    const outside = prose(text).split("\n");
    text.split("\n").forEach((line, index) => {
        // A heading outside code blocks, read from the original line: prose() blanked its inline code.
        const heading = /^#{1,6}\s/.test(outside[index]) ? /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line) : null;
        if (heading == null) return;
        const slug = githubSlug(heading[1]);
        const count = seen.get(slug) ?? 0;
        seen.set(slug, count + 1);
        anchors.add(count === 0 ? slug : `${slug}-${count}`);
    });
    return anchors;
}

export function githubSlug(heading: string): string {
    return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
}

export type Section = {heading: string, line: number, body: string};

/** The `## ` sections of a file (headings inside code blocks are not headings); the text before the first one is `preamble`. */
export function sections(file: MarkdownFile): {preamble: string, sections: Section[]} {
    const outside = prose(file.text).split("\n");
    const lines = file.text.split("\n");
    const found: Section[] = [];
    const preamble: string[] = [];
    let current: {heading: string, line: number, body: string[]} | undefined;
    lines.forEach((line, index) => {
        const heading = /^##\s/.test(outside[index]) ? /^##\s+(.*?)\s*$/.exec(line) : null;
        if (heading != null) {
            if (current != null) found.push({...current, body: current.body.join("\n")});
            current = {heading: heading[1].replace(/`/g, ""), line: index + 1, body: []};
        } else if (current != null) current.body.push(line);
        else preamble.push(line);
    });
    if (current != null) found.push({...current, body: current.body.join("\n")});
    return {preamble: preamble.join("\n"), sections: found};
}
