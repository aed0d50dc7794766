// mcpwire/telemetry — OpenTelemetry for a Client, as code it is given:
//   import { openTelemetry } from "mcpwire/telemetry";
//   new Client(info, { telemetry: openTelemetry({ tracer }) });
// Its own entry, so that only a program that imports it carries the telemetry layer and the
// optional peer @opentelemetry/api (a literal import a bundler sees); the root entry holds the
// types alone. docs/telemetry.md. What an embedder names: api/telemetry.api.md (`npm run api`).

export { openTelemetry } from "./telemetry-layer.ts";
export { TelemetryError } from "../telemetry.ts";
export type {
  TelemetryAttributes,
  TelemetryContext,
  TelemetryErrorCode,
  TelemetryOptions,
  TelemetryProvider,
  TelemetrySpan,
  TelemetrySpanContext,
  TelemetryTracer,
} from "../telemetry.ts";
