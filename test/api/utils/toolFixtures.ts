import {Ajv2020} from "ajv/dist/2020.js";

// The function tools the tool-calling tests share (spec 2.5): a weather tool whose schema has every kind of
// constraint the call grammar must keep (enum, bounded integer, nested object, string length) and a clock.

export const weatherParameters = {
    type: "object",
    properties: {
        city: {type: "string", enum: ["Oslo", "Paris", "Lima"]},
        days: {type: "integer", minimum: 1, maximum: 7},
        unit: {type: "object", properties: {metric: {type: "boolean"}}, required: ["metric"]},
        note: {type: "string", maxLength: 6}
    },
    required: ["city", "days", "unit", "note"],
    additionalProperties: false
};

export const clockParameters = {type: "object", properties: {utc: {type: "boolean"}}, required: ["utc"]};

/** The tools in the chat shape of spec 2.1: `{type, function: {name, description, parameters}}`. */
export const chatTools = [
    {type: "function" as const, function: {name: "get_weather", description: "Weather forecast for a city", parameters: weatherParameters}},
    {type: "function" as const, function: {name: "get_time", description: "Current time", parameters: clockParameters}}
];

/** The same tools in the flat Responses shape: `{type, name, description, parameters, strict}`. */
export const responsesTools = chatTools.map(({function: fn}) => ({type: "function" as const, ...fn, strict: true}));

const ajv = new Ajv2020({strict: false});
const validators = new Map(chatTools.map((tool) => [tool.function.name, ajv.compile(tool.function.parameters)]));

/** Why `args` (a call's JSON-encoded arguments) break the schema of tool `name`, or undefined when they validate. */
export function argumentsProblem(name: string, args: string): string | undefined {
    const validate = validators.get(name);
    if (validate == null) return `no tool is named ${name}`;
    return validate(JSON.parse(args)) ? undefined : `${args}: ${ajv.errorsText(validate.errors)}`;
}
