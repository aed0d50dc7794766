// parseConfig as the host's entry exports it: parser.ts with ajv's findings set
// (schema-errors.ts), so that a refused config is explained at once, synchronously. The CLI's
// own path (load.ts) imports parser.ts and loads ajv only when a config is refused.

import { schemaErrors } from "./schema-errors.ts";
import { setSchemaErrors } from "./validate.ts";

setSchemaErrors(schemaErrors);

export { buildServers, parseConfig, type ParseConfigOptions } from "./parser.ts";
