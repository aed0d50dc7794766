// The TypeScript loader of `node test/suite.mjs node` (`node --import ./test/support/ts-loader.mjs
// --test …`): each test file's process registers ts-hooks.mjs, which hands Node the JavaScript of
// every .ts module. It does what tsx did there at about a third of tsx's start-up cost (0.3 s of
// CPU less per file, measured in test/suite.mjs's opening comment); a single file still runs with
// `node --import tsx --test FILE`, and tests that start TypeScript children keep tsx.
import { register } from "node:module";
import process from "node:process";

// Stack traces name the .ts lines, as under tsx.
process.setSourceMapsEnabled(true);
register(new URL("./ts-hooks.mjs", import.meta.url));

// TEST_CPU_LOG (test/suite.mjs): this test file's CPU and its children's (those it waited for),
// from /proc/self/stat in clock ticks of 1/100 s, appended at its exit.
if (process.env.TEST_CPU_LOG && process.env.NODE_TEST_CONTEXT && process.platform === "linux") {
  const { appendFileSync, readFileSync } = await import("node:fs");
  process.on("exit", () => {
    const stat = readFileSync("/proc/self/stat", "utf8");
    // The fields after the command's name, from the third: utime is the 14th, stime, cutime, cstime follow.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const seconds = (field) => Number(fields[field - 3]) / 100;
    const user = seconds(14) + seconds(16);
    const system = seconds(15) + seconds(17);
    const file = process.argv.at(-1);
    appendFileSync(process.env.TEST_CPU_LOG, `${user.toFixed(2)} ${system.toFixed(2)} ${process.uptime().toFixed(1)} node ${file}\n`);
  });
}
