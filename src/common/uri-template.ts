// RFC 6570 URI templates, levels 1 to 3: `{var}`, `{+var}`, `{#var}` (levels 1–2) and the
// level-3 operators `.`, `/`, `;`, `?`, `&` with several variables (`{x,y}`). Level 4's value
// modifiers (`{var:3}` prefixes, `{list*}` explosion) and list or map values are not supported:
// a template using them is refused (templateSyntaxProblem still reads all four levels, to say
// whether a server's template is one at all). spec 2025-11-25 server/resources: a resource template's
// uriTemplate is an RFC 6570 template.

import { McpwireError } from "./mcpwire-error.ts";

/** What went wrong with a URI template: written in a way this expander cannot read, or a variable without a value. */
export class UriTemplateError extends McpwireError<"unsupported-template" | "missing-variable"> {
  override readonly name = "UriTemplateError";
  /** missing-variable: the variables without a value, in template order. */
  readonly missing: string[];
  constructor(message: string, code: "unsupported-template" | "missing-variable", options: { missing?: string[] } = {}) {
    super(message, code);
    this.missing = options.missing ?? [];
  }
}

/** How one operator expands (RFC 6570 appendix A). */
interface Operator {
  first: string;
  separator: string;
  named: boolean;
  ifEmpty: string;
  /** Reserved characters and pct-encoded triplets pass as they are (`+`, `#`). */
  reserved: boolean;
}

const OPERATORS: Record<string, Operator> = {
  "": { first: "", separator: ",", named: false, ifEmpty: "", reserved: false },
  "+": { first: "", separator: ",", named: false, ifEmpty: "", reserved: true },
  "#": { first: "#", separator: ",", named: false, ifEmpty: "", reserved: true },
  ".": { first: ".", separator: ".", named: false, ifEmpty: "", reserved: false },
  "/": { first: "/", separator: "/", named: false, ifEmpty: "", reserved: false },
  ";": { first: ";", separator: ";", named: true, ifEmpty: "", reserved: false },
  "?": { first: "?", separator: "&", named: true, ifEmpty: "=", reserved: false },
  "&": { first: "&", separator: "&", named: true, ifEmpty: "=", reserved: false },
};

/** The operators this expander knows, for messages and help. */
export const SUPPORTED_TEMPLATE_FORMS = "{var} {+var} {#var} {.var} {/var} {;var} {?var} {&var}, several variables as {x,y}";

const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/;
const EXPRESSION = /\{([^{}]*)\}/g;

interface Expression {
  operator: Operator;
  names: string[];
}

function parseExpression(template: string, body: string): Expression {
  const op = body.charAt(0);
  const known = Object.hasOwn(OPERATORS, op) && op !== "";
  const operator = OPERATORS[known ? op : ""]!;
  const names = (known ? body.slice(1) : body).split(",");
  for (const name of names) {
    if (!VARNAME.test(name)) {
      const why = /[:*]/.test(name) ? "value modifiers (:N, *) are RFC 6570 level 4, which mcpwire does not expand" : "not a variable name";
      throw new UriTemplateError(
        `URI template ${JSON.stringify(template)}: {${body}}: ${why}; supported: ${SUPPORTED_TEMPLATE_FORMS}`,
        "unsupported-template",
      );
    }
  }
  return { operator, names };
}

/** The variables of a template, each once, in the order they first appear. */
export function templateVariables(template: string): string[] {
  const seen = new Set<string>();
  for (const match of template.matchAll(EXPRESSION)) for (const name of parseExpression(template, match[1] ?? "").names) seen.add(name);
  return [...seen];
}

/**
 * The URI `values` make of `template`. Every variable must have a value (an empty string is
 * one): for a resource, an undefined variable (which RFC 6570 drops) would read another URI.
 */
export function expandTemplate(template: string, values: Readonly<Record<string, string>>): string {
  const missing = templateVariables(template).filter((name) => !Object.hasOwn(values, name));
  if (missing.length > 0) {
    throw new UriTemplateError(`URI template ${JSON.stringify(template)} needs ${missing.map((name) => `${name}=…`).join(" ")}`, "missing-variable", {
      missing,
    });
  }
  return template.replace(EXPRESSION, (_, body: string) => {
    const { operator, names } = parseExpression(template, body);
    const parts = names.map((name) => {
      const value = encode(values[name] ?? "", operator.reserved);
      if (!operator.named) return value;
      return value === "" ? name + operator.ifEmpty : `${name}=${value}`;
    });
    return operator.first + parts.join(operator.separator);
  });
}

// RFC 6570 section 2: what may stand outside an expression (any character but CTL, SP, '"', "'",
// "%" unless pct-encoded, "<", ">", "\\", "^", "`", "{", "|", "}"), and an expression's variable
// specification at every level (level 4's ":N" prefix, 1 to 9999, and "*" explosion included).
const LITERAL_FORBIDDEN = /[\u0000-\u0020\u007f"'<>\\^`{|}]/;
const VARSPEC = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*(?::[1-9][0-9]{0,3}|\*)?$/;
/** Operators RFC 6570 reserves for future extensions ("op-reserve"): an expression using one is an error. */
const RESERVED_OPERATORS = "=,!@|";

/**
 * Why `template` is not a URI template by RFC 6570's grammar (section 2, levels 1 to 4), or
 * undefined when it is one. Checks the syntax only: a template this module cannot expand
 * (level 4) is still a valid one.
 */
export function templateSyntaxProblem(template: string): string | undefined {
  let at = 0;
  while (at < template.length) {
    const char = template.charAt(at);
    if (char === "{") {
      const end = template.indexOf("}", at + 1);
      if (end < 0) return `the expression at offset ${at} is not closed by "}"`;
      const body = template.slice(at + 1, end);
      if (body.includes("{")) return `the expression at offset ${at} holds a "{"`;
      const op = body.charAt(0);
      if (RESERVED_OPERATORS.includes(op) && op !== "") return `{${body}}: the operator "${op}" is reserved by RFC 6570 for future extensions`;
      const list = Object.hasOwn(OPERATORS, op) && op !== "" ? body.slice(1) : body;
      for (const spec of list.split(",")) {
        if (!VARSPEC.test(spec)) return `{${body}}: ${spec === "" ? "an empty variable name" : JSON.stringify(spec) + " is not a variable name"}`;
      }
      at = end + 1;
    } else if (char === "}") {
      return `a "}" at offset ${at} closes no expression`;
    } else if (char === "%") {
      if (!/^%[0-9A-Fa-f]{2}$/.test(template.slice(at, at + 3))) return `a "%" at offset ${at} is not followed by two hex digits`;
      at += 3;
    } else {
      if (LITERAL_FORBIDDEN.test(char)) return `the character ${JSON.stringify(char)} at offset ${at} may not stand outside an expression`;
      at++;
    }
  }
  return undefined;
}

// RFC 3986 unreserved characters; with `reserved`, the gen-delims and sub-delims too, and a pct-encoded triplet kept.
const UNRESERVED = /[A-Za-z0-9\-._~]/;
const RESERVED = /[:/?#[\]@!$&'()*+,;=]/;

function encode(value: string, reserved: boolean): string {
  let out = "";
  for (let i = 0; i < value.length; i++) {
    const char = value.charAt(i);
    if (UNRESERVED.test(char) || (reserved && RESERVED.test(char))) {
      out += char;
    } else if (reserved && char === "%" && /^%[0-9A-Fa-f]{2}$/.test(value.slice(i, i + 3))) {
      out += value.slice(i, i + 3);
      i += 2;
    } else {
      const code = value.codePointAt(i)!;
      const whole = String.fromCodePoint(code);
      if (whole.length === 2) i++;
      // A lone surrogate is no character: encoded as U+FFFD, as TextEncoder would.
      const lone = whole.length === 1 && code >= 0xd800 && code <= 0xdfff;
      out += encodeURIComponent(lone ? "\uFFFD" : whole).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
    }
  }
  return out;
}
