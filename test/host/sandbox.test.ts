// bwrap's arguments from a sandbox plan (host/sandbox/sandbox.ts): the namespaces, the system's
// directories read-only, the plan's paths in an order that keeps them visible, the working
// directory, the program after `--`. Pure: no process is run.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { bwrapArguments, ETC_FILES, SYSTEM_DIRECTORIES } from "../../src/host/sandbox/sandbox.ts";

/** The mounts of an argument list after the fixed part, as "kind path" strings. */
function mounts(args: string[]): string[] {
  const out: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const word = args[index]!;
    if (word === "--ro-bind-try" || word === "--bind-try") {
      const path = args[index + 1]!;
      assert.equal(args[index + 2], path, `${word} binds ${path} at the same path`);
      if (!SYSTEM_DIRECTORIES.includes(path) && !path.startsWith("/etc/")) out.push(`${word === "--bind-try" ? "rw" : "ro"} ${path}`);
      index += 2;
    } else if (word === "--tmpfs") {
      out.push(`tmpfs ${args[++index]}`);
    } else if (word === "--") break;
  }
  return out;
}

describe("bwrapArguments", () => {
  test("the default plan: new PID, IPC, UTS and network namespaces, dies with its parent, the program after --", () => {
    const args = bwrapArguments({ read: [], write: [], network: false }, "node", ["server.mjs", "--flag"]);
    for (const flag of ["--die-with-parent", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-net"]) assert.ok(args.includes(flag), flag);
    assert.deepEqual(args.slice(args.indexOf("--")), ["--", "node", "server.mjs", "--flag"]);
    // A private /tmp, minimal /proc and /dev, and the working directory there when none is bound.
    assert.deepEqual(mounts(args), ["tmpfs /tmp"]);
    assert.deepEqual(args.slice(args.indexOf("--proc"), args.indexOf("--proc") + 4), ["--proc", "/proc", "--dev", "/dev"]);
    assert.deepEqual(args.slice(args.indexOf("--chdir"), args.indexOf("--chdir") + 2), ["--chdir", "/tmp"]);
  });

  test("network: true keeps the host's network namespace", () => {
    assert.ok(!bwrapArguments({ read: [], write: [], network: true }, "node", []).includes("--unshare-net"));
  });

  test("the system's directories and selected /etc files only, read-only; never all of /etc", () => {
    const args = bwrapArguments({ read: [], write: [], network: false }, "node", []);
    for (const dir of ["/usr", "/lib", "/lib64", "/bin"]) assert.ok(args.join(" ").includes(`--ro-bind-try ${dir} ${dir}`), dir);
    for (const file of ["resolv.conf", "ssl", "passwd"]) assert.ok(ETC_FILES.includes(file), file);
    assert.ok(!ETC_FILES.includes("shadow"));
    assert.ok(!args.includes("/etc") && !args.includes("/"), "neither /etc nor / is bound whole");
    assert.ok(!args.includes("--bind") && !args.includes("--bind-try") && !args.includes("--dev-bind"), "nothing writable without a write path");
  });

  test("parents before what is below them: a writable directory inside a read-only one, paths under /tmp after its tmpfs", () => {
    const args = bwrapArguments(
      { read: ["/tmp/work/project", "/srv/data/", "/srv//data/notes"], write: ["/srv/data/notes/drafts", "/tmp/work/project/out"], network: false },
      "node",
      [],
    );
    assert.deepEqual(mounts(args), [
      "tmpfs /tmp",
      "ro /srv/data",
      "ro /srv/data/notes",
      "ro /tmp/work/project",
      "rw /srv/data/notes/drafts",
      "rw /tmp/work/project/out",
    ]);
  });

  test("a path both read and written is written; a repeated path is bound once", () => {
    const args = bwrapArguments({ read: ["/data", "/data"], write: ["/data"], network: false }, "node", []);
    assert.deepEqual(mounts(args), ["rw /data", "tmpfs /tmp"]);
  });

  test("the home directory is an empty tmpfs under the paths bound inside it, unless a bound path holds it", () => {
    const inside = bwrapArguments({ read: ["/home/u/.npm", "/home/u/project"], write: [], network: false, home: "/home/u" }, "npx", []);
    assert.deepEqual(mounts(inside), ["tmpfs /tmp", "tmpfs /home/u", "ro /home/u/.npm", "ro /home/u/project"]);
    const held = bwrapArguments({ read: ["/home"], write: [], network: false, home: "/home/u" }, "node", []);
    assert.deepEqual(mounts(held), ["ro /home", "tmpfs /tmp"]);
  });

  test("the working directory is kept when a bound path holds it, else /tmp", () => {
    const chdir = (args: string[]) => args[args.indexOf("--chdir") + 1];
    assert.equal(chdir(bwrapArguments({ read: ["/srv/app"], write: [], network: false, cwd: "/srv/app/sub" }, "node", [])), "/srv/app/sub");
    assert.equal(chdir(bwrapArguments({ read: ["/srv/app"], write: [], network: false, cwd: "/srv/other" }, "node", [])), "/tmp");
    // Inside the home tmpfs, only the home itself exists.
    assert.equal(chdir(bwrapArguments({ read: [], write: [], network: false, home: "/home/u", cwd: "/home/u/x" }, "node", [])), "/tmp");
  });

  test("/proc and /dev are mounted after every bound path, even a bound /", () => {
    const args = bwrapArguments({ read: ["/"], write: [], network: false }, "node", []);
    assert.ok(args.indexOf("--proc") > args.lastIndexOf("--ro-bind-try"), "--proc after the binds");
    assert.ok(args.indexOf("--dev") > args.lastIndexOf("--ro-bind-try"), "--dev after the binds");
  });

  test("the program's own arguments come after -- untouched, even ones that look like bwrap's", () => {
    const args = bwrapArguments({ read: [], write: [], network: false }, "/opt/server", ["--bind", "/", "/", "--unshare-net"]);
    assert.deepEqual(args.slice(args.indexOf("--") + 1), ["/opt/server", "--bind", "/", "/", "--unshare-net"]);
  });
});
