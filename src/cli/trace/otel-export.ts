// `--otel` (or the config's `telemetry:` key) on the session verbs: the spans of every server and
// of the agent loop exported with OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT (OpenTelemetry
// "OTLP Exporter Configuration": OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as given, else
// OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces, else http://localhost:4318/v1/traces). The packages
// are the user's to install; they are imported only here, only when asked (docs/telemetry.md).

import type { TelemetryOptions, TelemetryTracer } from "../../client/telemetry.ts";
import { messageOf } from "../../common/error-text.ts";
import { within } from "../../common/timing.ts";
import type { McpwireConfig } from "../../host/config/types.ts";
import { UsageError } from "../args.ts";
import { VERSION } from "../version.ts";

/** What `--otel` needs installed beside mcpwire (none is a dependency of mcpwire). */
export const OTEL_PACKAGES = ["@opentelemetry/api", "@opentelemetry/sdk-trace-base", "@opentelemetry/exporter-trace-otlp-http"] as const;
/** How long the spans still buffered may take to go out when the verb ends. */
const SHUTDOWN_MS = 5_000;
/**
 * How long one export may take, its retries included (the exporter retries a refused connection
 * and 429/502/503/504 with backoff until then): below SHUTDOWN_MS, so that a failing last export
 * ends with its own error rather than at the bound.
 */
const EXPORT_TIMEOUT_MS = 4_000;
const DEFAULT_ENDPOINT = "http://localhost:4318/v1/traces";

/** An OTLP export under way: the telemetry options for the manager and the Runner, and its flush at the end. */
export interface OtlpExport {
  telemetry: TelemetryOptions;
  /** Where spans go. */
  url: string;
  /**
   * Sends what is buffered and stops; bounded (SHUTDOWN_MS). Resolves to a warning when spans
   * were lost (an export failed, or the last one did not finish in time), else undefined.
   */
  shutdown(): Promise<string | undefined>;
}

interface SdkTraceBase {
  BasicTracerProvider: new (config: { spanProcessors: unknown[]; resource?: unknown }) => {
    getTracer(name: string, version?: string): TelemetryTracer;
    shutdown(): Promise<void>;
  };
  BatchSpanProcessor: new (exporter: unknown) => unknown;
}
/** What the BatchSpanProcessor calls of an exporter (sdk-trace-base SpanExporter). */
interface SpanExporter {
  export(spans: unknown[], done: (result: { code: number; error?: Error }) => void): void;
  shutdown(): Promise<void>;
  forceFlush?(): Promise<void>;
}
interface OtlpHttp {
  OTLPTraceExporter: new (config: { url: string; timeoutMillis?: number }) => SpanExporter;
}
interface Resource {
  merge(other: Resource | null): Resource;
}
interface Resources {
  resourceFromAttributes?: (attributes: Record<string, string>) => Resource;
  defaultResource?: () => Resource;
}

/** The traces URL the environment names (OpenTelemetry OTLP exporter configuration). */
export function otlpTracesUrl(env: Record<string, string | undefined>): string {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return traces;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (base) return `${base.replace(/\/+$/, "")}/v1/traces`;
  return DEFAULT_ENDPOINT;
}

/**
 * The resource the spans are exported with (OpenTelemetry "General SDK Configuration"):
 * OTEL_RESOURCE_ATTRIBUTES (`key=value` pairs, comma-separated, values percent-encoded; a
 * malformed pair is left out), then `service.name` from OTEL_SERVICE_NAME, which wins over the
 * one in OTEL_RESOURCE_ATTRIBUTES, else `mcpwire`; `service.version` is mcpwire's unless given.
 */
export function otlpResourceAttributes(env: Record<string, string | undefined>): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const pair of (env.OTEL_RESOURCE_ATTRIBUTES ?? "").split(",")) {
    const at = pair.indexOf("=");
    const key = pair.slice(0, at).trim();
    if (at <= 0 || key === "") continue;
    try {
      attributes[key] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      // a malformed percent-encoding: the pair is left out
    }
  }
  attributes["service.name"] = env.OTEL_SERVICE_NAME?.trim() || attributes["service.name"] || "mcpwire";
  attributes["service.version"] ??= VERSION;
  return attributes;
}

/** The endpoint as a message shows it: no user, password or query (where credentials would be). */
function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return "the OTLP endpoint";
  }
}

/**
 * Each package by a literal import(): deno publish and a bundler see the specifier (none is
 * computed), and nothing is loaded before `--otel` asks.
 */
const LOADERS: Readonly<Record<(typeof OTEL_PACKAGES)[number] | "@opentelemetry/resources", () => Promise<unknown>>> = {
  "@opentelemetry/api": () => import("@opentelemetry/api"),
  "@opentelemetry/sdk-trace-base": () => import("@opentelemetry/sdk-trace-base"),
  "@opentelemetry/exporter-trace-otlp-http": () => import("@opentelemetry/exporter-trace-otlp-http"),
  "@opentelemetry/resources": () => import("@opentelemetry/resources"),
};

/** Imports one package; undefined when it cannot be loaded. */
async function optional(name: keyof typeof LOADERS): Promise<Record<string, unknown> | undefined> {
  try {
    return (await LOADERS[name]()) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/**
 * Starts the OTLP/HTTP export: the three packages imported, a tracer provider batching to the
 * endpoint. `who` says what asked for it (`--otel`, `the config's telemetry: key`). A UsageError
 * naming what to install when a package is missing.
 */
export async function startOtlpExport(who: string, env: Record<string, string | undefined>, config: McpwireConfig): Promise<OtlpExport> {
  const loaded = await Promise.all(OTEL_PACKAGES.map(async (name) => ({ name, module: await optional(name) })));
  const missing = loaded.filter((entry) => entry.module === undefined).map((entry) => entry.name);
  if (missing.length > 0) {
    throw new UsageError(
      `${who}: exporting spans with OTLP/HTTP needs ${missing.join(", ")}, which ${missing.length === 1 ? "is" : "are"} not installed; ` +
        `install them beside mcpwire (npm install ${OTEL_PACKAGES.join(" ")}), or run without ${who}`,
    );
  }
  const sdk = loaded[1]!.module as unknown as SdkTraceBase;
  const otlp = loaded[2]!.module as unknown as OtlpHttp;
  const url = otlpTracesUrl(env);
  const resources = (await optional("@opentelemetry/resources")) as Resources | undefined;
  let provider: InstanceType<SdkTraceBase["BasicTracerProvider"]>;
  // The SDK reports a failed export to nobody (a diag logger nobody set): the first failure is kept, and said at the end.
  let failure: unknown;
  try {
    const exporter = new otlp.OTLPTraceExporter({ url, timeoutMillis: EXPORT_TIMEOUT_MS });
    const watched: SpanExporter = {
      export: (spans, done) =>
        exporter.export(spans, (result) => {
          // ExportResultCode.FAILED (core): 1
          if (result.code !== 0) failure ??= result.error ?? new Error("the export failed");
          done(result);
        }),
      shutdown: () => exporter.shutdown(),
      forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
    };
    // The SDK's own attributes (telemetry.sdk.*) under ours; without the resources package
    // (not resolvable beside mcpwire) the SDK's default resource names no service.
    const ours = resources?.resourceFromAttributes?.(otlpResourceAttributes(env));
    const resource = ours === undefined ? undefined : resources?.defaultResource?.().merge(ours) ?? ours;
    provider = new sdk.BasicTracerProvider({
      spanProcessors: [new sdk.BatchSpanProcessor(watched)],
      ...(resource !== undefined ? { resource } : {}),
    });
  } catch (error) {
    throw new UsageError(
      `${who}: the OpenTelemetry SDK could not be set up (${messageOf(error)}); check the installed versions of ${OTEL_PACKAGES.join(", ")}`,
      "usage",
      {
        cause: error,
      },
    );
  }
  const settings = config.telemetry;
  return {
    url,
    telemetry: {
      tracer: provider.getTracer("mcpwire", VERSION),
      capture: { arguments: settings?.captureArguments === true, results: settings?.captureResults === true },
    },
    shutdown: async () => {
      const done = await within(provider.shutdown().catch((error: unknown) => (failure ??= error)), SHUTDOWN_MS);
      const where = shownUrl(url);
      if (failure !== undefined) {
        return `${who}: spans were not exported to ${where} (${messageOf(failure)}); check that an OTLP/HTTP collector listens there ` +
          `(OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)`;
      }
      if (!done) {
        return `${who}: the last spans were still being sent to ${where} after ${SHUTDOWN_MS / 1000} s and were dropped; check that the collector answers`;
      }
      return undefined;
    },
  };
}
