// The interpreting validator: json-schema-interpreter.ts walks the schema for each value, so
// nothing is compiled to code — it runs where `new Function` is refused (a page whose
// Content-Security-Policy lacks 'unsafe-eval', Cloudflare Workers). Its findings are given in
// ajv's words, so a message reads the same whichever validator found it. Loaded only when
// chosen (json-schema.ts imports this module dynamically).

import { messageOf } from "../../common/error-text.ts";
import type { JsonObject } from "../types.ts";
import { SchemaInterpreter } from "./json-schema-interpreter.ts";
import { schemaProblem } from "./schema-shape.ts";
import { type CompileOptions, type Dialect, orderedFailures, type SchemaCheck, SchemaError, type SchemaValidator } from "./schema-validator.ts";

class InterpretingValidator implements SchemaValidator {
  readonly name = "interpreting";

  compile(schema: JsonObject, dialect: Dialect, options: CompileOptions = {}): SchemaCheck {
    // The dialect is chosen: `$schema` is not read. Nothing here changes the caller's schema.
    const { $schema: _dialect, ...body } = schema;
    let interpreter: SchemaInterpreter;
    try {
      const shape = schemaProblem(body, dialect);
      if (shape !== undefined) throw new SchemaError(`schema is invalid: ${shape}`);
      interpreter = new SchemaInterpreter(body, dialect, options.formats);
    } catch (error) {
      if (error instanceof SchemaError) throw error;
      throw new SchemaError(messageOf(error), { cause: error });
    }
    return (value) => {
      const failures = interpreter.check(value);
      return failures.length === 0 ? undefined : orderedFailures(failures);
    };
  }
}

/** The interpreting validator (one per process: it keeps nothing between compiles). */
export const interpretingValidator: SchemaValidator = new InterpretingValidator();
