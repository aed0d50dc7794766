// The `mcpwire` command: picks the verb and turns usage errors into a message and exit 2.

import { runtime } from "../runtime/mod.ts";
import { UsageError } from "./args.ts";
import { CommandLineError } from "./command-line.ts";
import { inspect, INSPECT_USAGE } from "./inspect.ts";

export const VERSION = "0.1.0";

const USAGE = `mcpwire ${VERSION} — a Model Context Protocol client

usage: mcpwire <verb> [options]

verbs:
  inspect   connect to one server and show its tools, resources and prompts
  help      show this text, or a verb's: mcpwire help inspect
  version   print the version

${INSPECT_USAGE}`;

export async function main(argv: readonly string[]): Promise<number> {
  const [verb, ...rest] = argv;
  try {
    switch (verb) {
      case "inspect":
        return await inspect(rest);
      case "version":
      case "--version":
        await runtime.write("stdout", `mcpwire ${VERSION}\n`);
        return 0;
      case "help":
      case "--help":
      case "-h":
      case undefined:
        await runtime.write("stdout", (rest[0] === "inspect" ? INSPECT_USAGE : USAGE) + "\n");
        return verb === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown verb "${verb}"; verbs: inspect, help, version`);
    }
  } catch (error) {
    if (error instanceof UsageError || error instanceof CommandLineError) {
      await runtime.write("stderr", `mcpwire: ${error.message}\nrun "mcpwire help" for usage\n`);
      return 2;
    }
    throw error;
  }
}
