// How the CLI answers a server's form-mode elicitation: asks the user field by field on a
// terminal, or declines, or accepts the schema's defaults — spec 2025-11-25
// client/elicitation ("Requested Schema", "Response Actions", "Security Considerations":
// the user must see which server asks, and may decline or cancel at any time).

import { validateAnswer } from "../client/elicitation.ts";
import type { ElicitationHandlers, UrlElicitationRequest } from "../client/handlers.ts";
import type { ElicitationSchema, ElicitFormRequest, ElicitResult, ElicitValue, PrimitiveSchemaDefinition } from "../client/types.ts";

/** What `--elicit` selects: ask on stdin, decline every request, or accept the defaults. */
export type ElicitMode = "prompt" | "decline" | "accept-defaults";
export const ELICIT_MODES: readonly ElicitMode[] = ["prompt", "decline", "accept-defaults"];

/** Where answers come from: stdin's lines in the CLI, a list in tests. Undefined: end of input. */
export interface LineSource {
  readLine(): Promise<string | undefined>;
}

export interface PromptIo {
  lines: LineSource;
  /** Write each answer after its prompt: input that is not typed on a terminal is not echoed. */
  echo?: boolean;
  /** Writes prompt text (the CLI writes to stderr; stdout carries the tool's result). */
  write: (text: string) => void;
}

/** A choice of a single- or multi-select enum: the value sent and the label shown. */
interface Choice {
  value: string;
  label: string;
}

function choicesOf(property: PrimitiveSchemaDefinition): Choice[] | undefined {
  if (property.oneOf !== undefined) return property.oneOf.map((option) => ({ value: option.const, label: option.title }));
  if (property.enum !== undefined) {
    // Legacy `enumNames` titles the `enum` values one by one.
    return property.enum.map((value, index) => ({ value, label: property.enumNames?.[index] ?? value }));
  }
  if (property.type === "array") {
    const items = property.items;
    if (items?.anyOf !== undefined) return items.anyOf.map((option) => ({ value: option.const, label: option.title }));
    if (items?.enum !== undefined) return items.enum.map((value) => ({ value, label: value }));
  }
  return undefined;
}

/** A default as the user reads it: enum values by their labels. */
function shown(value: ElicitValue, choices: Choice[] | undefined): string {
  const label = (item: string) => choices?.find((choice) => choice.value === item)?.label ?? item;
  return Array.isArray(value) ? value.map(label).join(", ") : typeof value === "string" ? label(value) : String(value);
}

/** The required fields an answer of defaults only would leave empty. */
export function requiredWithoutDefault(schema: ElicitationSchema): string[] {
  return (schema.required ?? []).filter((name) => schema.properties[name]?.default === undefined);
}

/**
 * `--elicit accept-defaults`: accept with no content, so the Client fills every field from
 * the schema's defaults (SEP-1034). When a required field has no default there is nothing
 * to send, so the request is declined and `note` says why.
 */
export function acceptDefaults(request: ElicitFormRequest, server: string): { result: ElicitResult; note: string } {
  const missing = requiredWithoutDefault(request.requestedSchema);
  if (missing.length > 0) {
    return {
      result: { action: "decline" },
      note: `${server} asked for input ("${request.message}"); declined: --elicit accept-defaults cannot answer ` +
        `the required field(s) ${missing.map((name) => `"${name}"`).join(", ")}, which have no default; run on a terminal to answer them`,
    };
  }
  return {
    result: { action: "accept", content: {} },
    note: `${server} asked for input ("${request.message}"); accepted with the schema's defaults (--elicit accept-defaults)`,
  };
}

class Stop {
  constructor(readonly action: "decline" | "cancel") {}
}

/** Reads one answer; `:decline` / `:cancel` stop the whole form, end of input cancels it. */
async function ask(io: PromptIo, prompt: string): Promise<string> {
  io.write(prompt);
  const line = await io.lines.readLine();
  if (line === undefined) {
    io.write("\n");
    throw new Stop("cancel");
  }
  if (io.echo) io.write(`${line}\n`);
  const answer = line.trim();
  if (answer === ":decline") throw new Stop("decline");
  if (answer === ":cancel") throw new Stop("cancel");
  return answer;
}

type Parsed = { value: ElicitValue } | { problem: string };

/** Parses one typed answer for a property, or says why it cannot be used. */
function parseAnswer(property: PrimitiveSchemaDefinition, text: string, choices: Choice[] | undefined): Parsed {
  if (choices !== undefined) {
    const pick = (word: string): string | undefined => {
      const index = Number(word);
      if (Number.isInteger(index) && index >= 1 && index <= choices.length) return choices[index - 1].value;
      return choices.find((choice) => choice.value === word || choice.label.toLowerCase() === word.toLowerCase())?.value;
    };
    if (property.type === "array") {
      const picked: string[] = [];
      for (const word of text.split(",").map((part) => part.trim()).filter((part) => part !== "")) {
        const value = pick(word);
        if (value === undefined) return { problem: `"${word}" is not one of the choices; give numbers separated by commas` };
        if (!picked.includes(value)) picked.push(value);
      }
      return { value: picked };
    }
    const value = pick(text);
    return value === undefined ? { problem: `"${text}" is not one of the choices; give its number` } : { value };
  }
  switch (property.type) {
    case "boolean":
      if (/^(y|yes|true)$/i.test(text)) return { value: true };
      if (/^(n|no|false)$/i.test(text)) return { value: false };
      return { problem: "answer y or n" };
    case "number":
    case "integer": {
      const value = Number(text);
      if (!Number.isFinite(value)) return { problem: `"${text}" is not a number` };
      if (property.type === "integer" && !Number.isInteger(value)) return { problem: `"${text}" is not a whole number` };
      return { value };
    }
    default:
      return { value: text };
  }
}

/**
 * Asks for every field of a form-mode request, one line each, and returns the user's
 * answer. Empty keeps the default (or skips an optional field); each value is checked
 * against its property before the next field is asked; at the end the user confirms.
 */
export async function promptForm(request: ElicitFormRequest, server: string, io: PromptIo): Promise<ElicitResult> {
  const schema = request.requestedSchema;
  const required = new Set(schema.required ?? []);
  io.write(
    `\n${server} asks: ${request.message}\n` +
      `  (Enter keeps the [default] or skips an optional field; type :decline to refuse, :cancel to dismiss)\n`,
  );
  const content: Record<string, ElicitValue> = {};
  try {
    for (const [name, property] of Object.entries(schema.properties)) {
      const choices = choicesOf(property);
      const title = property.title !== undefined && property.title !== name ? `${property.title} (${name})` : name;
      const description = property.description !== undefined ? ` — ${property.description}` : "";
      const marks = [required.has(name) ? "required" : "", property.format ?? ""].filter((mark) => mark !== "");
      io.write(`${title}${description}${marks.length > 0 ? ` [${marks.join(", ")}]` : ""}\n`);
      if (choices !== undefined) {
        for (const [index, choice] of choices.entries()) {
          const label = choice.label === choice.value ? choice.label : `${choice.label} (${choice.value})`;
          io.write(`  ${index + 1}) ${label}\n`);
        }
      }
      const hint = choices === undefined
        ? property.type === "boolean" ? " y/n" : ""
        : property.type === "array" ? " numbers, comma-separated" : " number";
      const fallback = property.default !== undefined ? ` [${shown(property.default, choices)}]` : "";
      for (;;) {
        const text = await ask(io, `  ${name}${hint}${fallback}: `);
        if (text === "") {
          if (property.default !== undefined) break; // the Client fills the default in (SEP-1034)
          if (!required.has(name)) break;
          io.write(`  "${name}" is required; type a value, or :decline\n`);
          continue;
        }
        const parsed = parseAnswer(property, text, choices);
        if ("problem" in parsed) {
          io.write(`  ${parsed.problem}\n`);
          continue;
        }
        const value = parsed.value;
        const single: ElicitationSchema = { type: "object", properties: { [name]: property } };
        const failures = validateAnswer(single, { [name]: value });
        if (failures !== undefined) {
          io.write(`  ${failures.join("; ")}\n`);
          continue;
        }
        content[name] = value;
        break;
      }
    }
    for (;;) {
      const confirm = (await ask(io, `send these answers to ${server}? [Y]es / [n]o (decline) / [c]ancel: `)).toLowerCase();
      if (confirm === "" || confirm === "y" || confirm === "yes") return { action: "accept", content };
      if (confirm === "n" || confirm === "no") return { action: "decline" };
      if (confirm === "c" || confirm === "cancel") return { action: "cancel" };
    }
  } catch (error) {
    if (error instanceof Stop) return { action: error.action };
    throw error;
  }
}

/**
 * Shows a URL-mode request — the server, its message, the full URL and its host — and asks
 * for consent. mcpwire neither opens nor fetches the URL (spec 2025-11-25 client/elicitation
 * "Safe URL Handling"); `accept` means the user agreed to open it themselves.
 */
export async function promptUrl(request: UrlElicitationRequest, server: string, io: PromptIo): Promise<ElicitResult> {
  io.write(
    `\n${server} asks you to open a link: ${request.message}\n` +
      `  ${request.url}\n  (host ${request.host}; mcpwire does not open or fetch it — check the host before you do)\n`,
  );
  try {
    for (;;) {
      const answer = (await ask(io, `open it yourself and continue? [y]es / [n]o (decline) / [c]ancel: `)).toLowerCase();
      if (answer === "y" || answer === "yes") return { action: "accept" };
      if (answer === "n" || answer === "no") return { action: "decline" };
      if (answer === "c" || answer === "cancel") return { action: "cancel" };
    }
  } catch (error) {
    if (error instanceof Stop) return { action: error.action };
    throw error;
  }
}

/**
 * The CLI's form- and URL-mode handlers for a mode. Prompts are serialised: two servers asking at
 * once are asked one after the other, never interleaved.
 */
export function cliElicitationHandlers(
  mode: ElicitMode,
  io: PromptIo,
  note: (text: string) => void,
  declineWhy = "--elicit decline",
): ElicitationHandlers {
  let queue: Promise<unknown> = Promise.resolve();
  return {
    form: (request, context) => {
      if (mode === "decline") {
        note(
          `${context.server} asked for input ("${request.message}"); declined: ${declineWhy}`,
        );
        return Promise.resolve({ action: "decline" });
      }
      if (mode === "accept-defaults") {
        const { result, note: text } = acceptDefaults(request, context.server);
        note(text);
        return Promise.resolve(result);
      }
      const answer = queue.then(() => promptForm(request, context.server, io));
      queue = answer.catch(() => {});
      return answer;
    },
    url: (request, context) => {
      if (mode !== "prompt") {
        // accept-defaults too: opening a link needs the user's own consent, there is no default.
        note(`${context.server} asks you to open ${request.url} ("${request.message}"); declined: ${mode === "decline" ? declineWhy : "a link needs the user's consent (--elicit accept-defaults does not give it)"}`);
        return Promise.resolve({ action: "decline" });
      }
      const answer = queue.then(() => promptUrl(request, context.server, io));
      queue = answer.catch(() => {});
      return answer;
    },
  };
}
