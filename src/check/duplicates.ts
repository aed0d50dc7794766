// Duplicates within one list of `mcpwire check` (area `lists`, docs/check.md): two tools of one
// name, two prompts of one name, two resources of one URI, across all the pages of the list — a
// client that indexes them by their identifier keeps one and loses the other (spec 2025-11-25
// server/tools "Tool Names", server/prompts and server/resources "Data Types").

import { isObject } from "../common/json.ts";
import { pointerToken } from "../common/json-pointer.ts";
import { clipText } from "../common/preview.ts";
import type { ListedItem, Observed } from "./observed.ts";
import { type Judge, type Rule, rule } from "./rule.ts";
import { Tally } from "./tally.ts";

/** The duplicate rules of the lists area, by name. */
export const DuplicateRules = {
  toolName: rule(
    "lists/duplicate-tool-name",
    "SHOULD",
    "No two tools of one server share a name",
    { source: "2025-11-25", page: "server/tools", section: "Tool Names" },
    "Give each tool its own name: a client calls tools by name, so one of two tools of the same name cannot be called.",
  ),
  promptName: rule(
    "lists/duplicate-prompt-name",
    "SHOULD",
    "No two prompts of one server share a name (its unique identifier)",
    { source: "2025-11-25", page: "server/prompts", section: "Prompt" },
    "Give each prompt its own name: prompts/get names the prompt, so one of two prompts of the same name cannot be fetched.",
  ),
  resourceUri: rule(
    "lists/duplicate-resource-uri",
    "SHOULD",
    "No two resources of one server share a uri (its unique identifier)",
    { source: "2025-11-25", page: "server/resources", section: "Resource" },
    "List each resource once, under its own URI: resources/read takes the URI, so two entries for one URI describe one resource twice.",
  ),
} as const;

/** Judges each list for an identifier seen twice; a rule is skipped when its list was not followed. */
export function judgeDuplicates(observed: Observed, judge: Judge): void {
  const tally = new Tally(judge);
  const { tools, prompts, resources } = observed.lists;
  const lists: [Rule, ListedItem[] | undefined, string, string][] = [
    [DuplicateRules.toolName, tools, "name", "tools"],
    [DuplicateRules.promptName, prompts, "name", "prompts"],
    [DuplicateRules.resourceUri, resources, "uri", "resources"],
  ];
  for (const [each, items, key, what] of lists) {
    if (items === undefined) {
      judge.skip(each, `the server's ${what} were not listed`);
      continue;
    }
    const first = new Map<string, ListedItem>();
    for (const item of items) {
      const id = isObject(item.value) ? item.value[key] : undefined;
      if (typeof id !== "string") continue;
      const earlier = first.get(id);
      if (earlier === undefined) {
        first.set(id, item);
        tally.held(each);
        continue;
      }
      const where = earlier.index === item.index ? earlier.pointer : `${earlier.pointer} of message ${earlier.index}`;
      tally.fail(each, `${what}/list gave ${key} ${JSON.stringify(clipText(id, 80))} twice: here and at ${where}`, {
        index: item.index,
        pointer: `${item.pointer}/${pointerToken(key)}`,
        excerpt: clipText(id, 120),
      });
    }
    tally.done(each, `the server listed no ${what}`);
  }
}
