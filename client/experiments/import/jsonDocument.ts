import {ImportError} from "./importProblems.ts";
import {parseYamlFile, type YamlFile} from "./yamlDocument.ts";

// A JSON file read strictly (JSON.parse decides what is JSON, so YAML's leniencies, such as a trailing comma or an
// unquoted key, are errors), then through the YAML reader for the line of each field.

/** Parses `text` as JSON; a syntax error is an ImportError with its line when one can be found. */
export function parseJsonFile(file: string, text: string): YamlFile {
    try {
        JSON.parse(text);
    } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const position = / at position (\d+)/.exec(message);
        const line = position !== null ? text.slice(0, Number(position[1])).split("\n").length : yamlErrorLine(file, text);
        const detail = message.replace(/ in JSON at position \d+.*$/s, "").replace(/^Unexpected end of JSON input$/, "the file ends before the JSON does");
        throw new ImportError({file, line, field: ""}, `not valid JSON: ${detail}`);
    }
    return parseYamlFile(file, text);
}

/** Where the YAML reader stops on text that is no JSON (engines whose JSON.parse names no position). */
function yamlErrorLine(file: string, text: string): number | undefined {
    try {
        parseYamlFile(file, text);
        return undefined;
    } catch (error) {
        return error instanceof ImportError ? error.place.line : undefined;
    }
}
