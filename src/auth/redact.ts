// Credential redaction for the OAuth layer: the one redactor lives in src/common/redact.ts.
export { REDACTED, redactHeaders, redactHeaderValue, redactText, redactUrl } from "../common/redact.ts";
