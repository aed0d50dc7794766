// Where JSON.parse failed, in our own words: engines word JSON syntax errors differently and some
// give no position, so the first error is found again here, with what was expected there.

/**
 * The first syntax error in text that JSON.parse refused, with what was expected there. Our
 * own words and offsets, because JSON.parse's differ between engines and some give no position.
 */
export function findJsonError(text: string): { offset: number; message: string } | undefined {
  let i = 0;
  class Stop {
    constructor(readonly message: string) {}
  }
  const shown = () => (i >= text.length ? "the end of the file" : JSON.stringify(text[i]));
  const space = () => {
    while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r")) i++;
  };
  const fail = (message: string): never => {
    throw new Stop(message);
  };
  const string = () => {
    i++; // the opening quote
    for (;;) {
      if (i >= text.length) fail('a string is not closed; add the closing "');
      const char = text[i]!; // i < text.length: fail() threw otherwise
      if (char === '"') return void i++;
      if (char < " ") fail("a raw control character (a line break or tab?) inside a string; write it as \\n or \\t");
      if (char === "\\") {
        const escape = text[i + 1];
        if (escape === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else if (escape !== undefined && '"\\/bfnrt'.includes(escape)) i += 2;
        else fail(`an invalid escape in a string; JSON knows \\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX`);
      } else {
        i++;
      }
    }
  };
  const value = (): void => {
    space();
    const char = text[i];
    if (char === "{") {
      return members("}", () => {
        if (text[i] === "/") fail("JSON has no comments; remove it (or use a YAML config, which has)");
        if (text[i] === "'") fail("property names take double quotes");
        if (text[i] !== '"') fail(`expected a double-quoted property name, found ${shown()}`);
        string();
        space();
        if (text[i] !== ":") fail(`expected ":" after the property name, found ${shown()}`);
        i++;
        value();
      });
    }
    if (char === "[") return members("]", value);
    if (char === '"') return string();
    const number = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/y;
    number.lastIndex = i;
    if ((char === "-" || (char !== undefined && char >= "0" && char <= "9")) && number.test(text)) return void (i = number.lastIndex);
    for (const literal of ["true", "false", "null"]) if (text.startsWith(literal, i)) return void (i += literal.length);
    if (char === "/") fail("JSON has no comments; remove it (or use a YAML config, which has)");
    if (char === "'") fail("strings take double quotes in JSON");
    fail(`expected a value (a string, number, object, array, true, false or null), found ${shown()}`);
  };
  const members = (close: "}" | "]", member: () => void) => {
    i++; // the opening bracket
    space();
    if (text[i] === close) return void i++;
    for (;;) {
      space();
      if (text[i] === close) fail(`a trailing comma before "${close}"; JSON allows none, remove it`);
      member();
      space();
      if (text[i] === ",") {
        i++;
        continue;
      }
      if (text[i] === close) return void i++;
      fail(`expected "," or "${close}" after ${close === "}" ? "a property value" : "an array item"}, found ${shown()}`);
    }
  };
  try {
    value();
    space();
    if (i < text.length) fail(`unexpected ${shown()} after the end of the JSON value`);
  } catch (error) {
    if (error instanceof Stop) return { offset: i, message: error.message };
    throw error;
  }
  return undefined;
}
