// The base of the four providers, each an HTTP API: the model, the connection (base URL, key,
// extra headers, fetch, timeout), the HTTP settings every call of it shares, and the headers
// that carry the key. A provider adds the API's request and answer shapes.

import { type HttpSettings, httpSettings, type ProviderConnection } from "./http.ts";
import type { ChatRequest, ChatResponse, Provider } from "./types.ts";

export abstract class HttpProvider implements Provider {
  readonly name: string;
  readonly model: string;
  protected readonly connection: ProviderConnection;
  protected readonly http: HttpSettings;

  /** `hints` say what to do when the API is unreachable or refuses the key; `model` defaults to the connection's. */
  constructor(
    name: string,
    connection: ProviderConnection,
    hints: Pick<HttpSettings, "unreachableHint" | "keyHint" | "advice">,
    model = connection.model,
  ) {
    this.name = name;
    this.model = model;
    this.connection = connection;
    this.http = httpSettings(name, connection, hints);
  }

  abstract chat(request: ChatRequest): Promise<ChatResponse>;

  /**
   * The connection's extra headers, plus its API key when it has one, in `keyHeader`
   * (`authorization` takes it as `Bearer <key>`, any other header as it is).
   */
  protected headers(keyHeader: string): Record<string, string> {
    const headers: Record<string, string> = { ...this.connection.headers };
    const key = this.connection.apiKey;
    if (key !== undefined) headers[keyHeader] = keyHeader === "authorization" ? `Bearer ${key}` : key;
    return headers;
  }
}
