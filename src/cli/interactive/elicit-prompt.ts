// How the CLI answers a server's form-mode elicitation: asks the user field by field on a
// terminal, or declines, or accepts the schema's defaults — spec 2025-11-25
// client/elicitation ("Requested Schema", "Response Actions", "Security Considerations":
// the user must see which server asks, and may decline or cancel at any time).
// Everything the server wrote (message, titles, labels, the URL) is shown with its control
// characters made visible (cli/output.ts): a server cannot colour, move, hide or relink text.

import { validateAnswer } from "../../client/elicitation.ts";
import type { ElicitationHandlers, UrlElicitationRequest } from "../../client/handlers.ts";
import { loadJsonSchema } from "../../client/schema/json-schema.ts";
import type { ElicitationSchema, ElicitFormRequest, ElicitResult, ElicitValue, PrimitiveSchemaDefinition } from "../../client/types.ts";
import { setOwn } from "../../common/json.ts";
import { lineOf, textOf } from "../output.ts";

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
      note: `${server} asked for input ("${lineOf(request.message)}"); declined: --elicit accept-defaults cannot answer ` +
        `the required field(s) ${missing.map((name) => `"${lineOf(name)}"`).join(", ")}, which have no default; run on a terminal to answer them`,
    };
  }
  return {
    result: { action: "accept", content: {} },
    note: `${server} asked for input ("${lineOf(request.message)}"); accepted with the schema's defaults (--elicit accept-defaults)`,
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
      if (Number.isInteger(index) && index >= 1 && index <= choices.length) return choices[index - 1]?.value;
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
    `\n${server} asks: ${textOf(request.message)}\n` +
      `  (Enter keeps the [default] or skips an optional field; type :decline to refuse, :cancel to dismiss)\n`,
  );
  const content: Record<string, ElicitValue> = {};
  try {
    for (const [name, property] of Object.entries(schema.properties)) {
      const choices = choicesOf(property);
      const title = lineOf(property.title !== undefined && property.title !== name ? `${property.title} (${name})` : name);
      const description = property.description !== undefined ? ` — ${lineOf(property.description)}` : "";
      const marks = [required.has(name) ? "required" : "", property.format ?? ""].filter((mark) => mark !== "");
      io.write(`${title}${description}${marks.length > 0 ? ` [${lineOf(marks.join(", "))}]` : ""}\n`);
      if (choices !== undefined) {
        for (const [index, choice] of choices.entries()) {
          const label = choice.label === choice.value ? choice.label : `${choice.label} (${choice.value})`;
          io.write(`  ${index + 1}) ${lineOf(label)}\n`);
        }
      }
      const hint = choices === undefined ? property.type === "boolean" ? " y/n" : "" : property.type === "array" ? " numbers, comma-separated" : " number";
      const fallback = property.default !== undefined ? ` [${lineOf(shown(property.default, choices))}]` : "";
      for (;;) {
        const text = await ask(io, `  ${lineOf(name)}${hint}${fallback}: `);
        if (text === "") {
          if (property.default !== undefined) break; // the Client fills the default in (SEP-1034)
          if (!required.has(name)) break;
          io.write(`  "${lineOf(name)}" is required; type a value, or :decline\n`);
          continue;
        }
        const parsed = parseAnswer(property, text, choices);
        if ("problem" in parsed) {
          io.write(`  ${lineOf(parsed.problem)}\n`);
          continue;
        }
        const value = parsed.value;
        const single: ElicitationSchema = { type: "object", properties: { [name]: property } };
        await loadJsonSchema();
        const failures = validateAnswer(single, { [name]: value });
        if (failures !== undefined) {
          io.write(`  ${lineOf(failures.join("; "))}\n`);
          continue;
        }
        setOwn(content, name, value); // the server's field names: `__proto__` is a field
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

/** Whether a URL-mode link may be offered to the user: its normalized form and origin, or why not. */
export type LinkCheck = { ok: true; href: string; origin: string } | { ok: false; why: string };

/**
 * Checks a URL-mode link before the user is asked about it — spec 2025-11-25 client/elicitation
 * ("Safe URL Handling": show the full URL and its domain; do not follow what is not safe). Only
 * `https:` is offered, and `http:` to this machine (localhost, 127.0.0.0/8, ::1), where nothing
 * crosses a network. `javascript:`, `file:`, `data:` and every other scheme, links with a user
 * name or password before the host (`https://good.example@evil.example/`) and text that is not
 * a URL are refused, each with the reason.
 */
export function checkLink(url: string): LinkCheck {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, why: "it is not a URL that can be parsed" };
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    return { ok: false, why: `it is a "${parsed.protocol}" URL, not a web page; only https: (or http: to this machine) is offered` };
  }
  if (parsed.protocol === "http:" && !isLoopback(parsed.hostname)) {
    return {
      ok: false,
      why: `it is plain http: to ${parsed.host}, which anyone on the way can read and change; ` +
        "only https: (or http: to this machine: localhost, 127.0.0.0/8, ::1) is offered",
    };
  }
  if (parsed.username !== "" || parsed.password !== "") {
    return { ok: false, why: "it has a user name or password before the host (user@host), a way to make a link look like another site's" };
  }
  // href and origin as the URL parser normalized them: the host in punycode (no look-alike
  // letters), control characters removed or percent-encoded.
  return { ok: true, href: parsed.href, origin: parsed.origin };
}

/** localhost, 127.0.0.0/8 (the URL parser has already turned 2130706433 or 0x7f.1 into dotted form), ::1. */
function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/**
 * Shows a URL-mode request — the server, its message, the full URL and its origin — and asks
 * for consent. mcpwire neither opens nor fetches the URL (spec 2025-11-25 client/elicitation
 * "Safe URL Handling"); `accept` means the user agreed to open it themselves. A link checkLink
 * refuses is declined before anything is asked, with the reason.
 */
export async function promptUrl(request: UrlElicitationRequest, server: string, io: PromptIo): Promise<ElicitResult> {
  const link = checkLink(request.url);
  if (!link.ok) {
    io.write(`\n${server} asks you to open ${lineOf(request.url)} ("${lineOf(request.message)}"); declined without asking: ${link.why}\n`);
    return { action: "decline" };
  }
  io.write(
    `\n${server} asks you to open a link: ${lineOf(request.message)}\n` +
      `  ${lineOf(link.href)}\n  (origin ${lineOf(link.origin)}; mcpwire does not open or fetch it — check the origin before you do)\n`,
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
        note(`${context.server} asked for input ("${lineOf(request.message)}"); declined: ${declineWhy}`);
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
      const link = checkLink(request.url);
      if (!link.ok) {
        note(`${context.server} asks you to open ${lineOf(request.url)} ("${lineOf(request.message)}"); declined without asking: ${link.why}`);
        return Promise.resolve({ action: "decline" });
      }
      if (mode !== "prompt") {
        // accept-defaults too: opening a link needs the user's own consent, there is no default.
        note(
          `${context.server} asks you to open ${lineOf(link.href)} ("${lineOf(request.message)}"); declined: ` +
            (mode === "decline" ? declineWhy : "a link needs the user's consent (--elicit accept-defaults does not give it)"),
        );
        return Promise.resolve({ action: "decline" });
      }
      const answer = queue.then(() => promptUrl(request, context.server, io));
      queue = answer.catch(() => {});
      return answer;
    },
  };
}
