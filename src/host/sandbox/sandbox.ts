// A sandbox plan (what a stdio server may read, write and reach) as bubblewrap's command line:
// new mount, PID, IPC and UTS namespaces (and network, unless allowed), the system's
// directories read-only, the plan's paths bound, a private /tmp, minimal /proc and /dev.

/** What the sandboxed server may see: absolute paths, already resolved (sandbox-plan.ts). */
export interface SandboxPlan {
  /** Bound read-only (missing ones are skipped). */
  read: readonly string[];
  /** Bound read-write (missing ones are skipped); a path in both lists is writable. */
  write: readonly string[];
  /** Whether the server keeps the host's network; false: a network namespace of its own, loopback only. */
  network: boolean;
  /** The user's home directory: an empty private tmpfs inside (unless a read or write path holds it). */
  home?: string;
  /** The working directory inside; /tmp when no bound path holds it. */
  cwd?: string;
}

/** The system's directories a program needs to run (read-only; missing ones skipped: merged /usr has /bin as a link). */
export const SYSTEM_DIRECTORIES: readonly string[] = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];

/**
 * Files of /etc a program may need: users and groups, name resolution, TLS certificates, the
 * time zone, the dynamic linker's cache. Not the rest of /etc (no keys, no shadow file).
 */
export const ETC_FILES: readonly string[] = [
  "passwd",
  "group",
  "hosts",
  "resolv.conf",
  "nsswitch.conf",
  "host.conf",
  "gai.conf",
  "localtime",
  "ssl",
  "ca-certificates",
  "pki",
  "crypto-policies",
  "ld.so.cache",
  "ld.so.conf",
  "ld.so.conf.d",
  "alternatives",
  "os-release",
  "mime.types",
  "protocols",
  "services",
];

/** Whether `path` is `parent` or below it. */
export function isWithin(path: string, parent: string): boolean {
  return path === parent || path.startsWith(parent.endsWith("/") ? parent : parent + "/");
}

/** A path without a trailing slash (except "/") and without repeated slashes. */
function normal(path: string): string {
  const squeezed = path.replace(/\/+/g, "/");
  return squeezed.length > 1 && squeezed.endsWith("/") ? squeezed.slice(0, -1) : squeezed;
}

function depth(path: string): number {
  return path === "/" ? 0 : path.split("/").length - 1;
}

/** One mount of the plan: bwrap applies them in order, so a parent comes before what is below it. */
interface Mount {
  path: string;
  kind: "ro" | "rw" | "tmpfs";
}

/**
 * bwrap's arguments for running `command args` under `plan` (bwrap itself not included): the
 * program is the word after `--`. Mounts go parents first, so a writable directory inside a
 * read-only one stays writable and a path under /tmp or the home directory is not hidden by
 * their tmpfs.
 */
export function bwrapArguments(plan: SandboxPlan, command: string, args: readonly string[]): string[] {
  const out = [
    // The server dies with bwrap, and bwrap with its parent (a crashed host leaves no server behind).
    // No --new-session: the server stays in bwrap's process group, which the transport signals
    // (its spawn already made bwrap a session leader without a controlling terminal).
    "--die-with-parent",
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
    ...(plan.network ? [] : ["--unshare-net"]),
  ];
  for (const dir of SYSTEM_DIRECTORIES) out.push("--ro-bind-try", dir, dir);
  for (const file of ETC_FILES) out.push("--ro-bind-try", `/etc/${file}`, `/etc/${file}`);
  const mounts = new Map<string, Mount>();
  mounts.set("/tmp", { path: "/tmp", kind: "tmpfs" });
  for (const path of plan.read.map(normal)) if (!mounts.has(path)) mounts.set(path, { path, kind: "ro" });
  for (const path of plan.write.map(normal)) mounts.set(path, { path, kind: "rw" });
  const bound = [...mounts.values()].filter((mount) => mount.kind !== "tmpfs");
  const home = plan.home === undefined ? undefined : normal(plan.home);
  if (home !== undefined && home !== "/" && !mounts.has(home) && !bound.some((mount) => isWithin(home, mount.path))) {
    mounts.set(home, { path: home, kind: "tmpfs" });
  }
  // Parents first; at the same depth, in a stable (sorted) order.
  const ordered = [...mounts.values()].sort((a, b) => depth(a.path) - depth(b.path) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const mount of ordered) {
    if (mount.kind === "tmpfs") out.push("--tmpfs", mount.path);
    else out.push(mount.kind === "ro" ? "--ro-bind-try" : "--bind-try", mount.path, mount.path);
  }
  // Last, so that no bound path (even `/`) brings the host's /proc or devices in.
  out.push("--proc", "/proc", "--dev", "/dev");
  const cwd = plan.cwd === undefined ? undefined : normal(plan.cwd);
  // A tmpfs is empty: only its own top is there to enter.
  const reachable = cwd !== undefined && [...mounts.values()].some((mount) => mount.kind === "tmpfs" ? cwd === mount.path : isWithin(cwd, mount.path));
  out.push("--chdir", reachable ? cwd : "/tmp");
  out.push("--", command, ...args);
  return out;
}
