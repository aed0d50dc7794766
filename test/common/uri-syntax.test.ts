// RFC 3986 URI syntax (src/common/uri-syntax.ts): the URIs the spec's examples use, the RFC's own
// (section 1.1.2), and what is not a URI — a relative reference, an unencoded space or letter
// outside ASCII, a bad percent-encoding, a bad port — each said in a few words.

import assert from "node:assert/strict";
import { test } from "node:test";
import { uriProblem } from "../../src/common/uri-syntax.ts";

test("the spec's and RFC 3986's example URIs are URIs", () => {
  const uris = [
    "file:///project/src/main.rs",
    "https://example.com/weather-icon.png",
    "git://github.com/modelcontextprotocol/specification",
    "demo://resource/static/document/architecture.md",
    "data:image/png;base64,iVBORw0KGgo=",
    "ftp://ftp.is.co.za/rfc/rfc1808.txt",
    "ldap://[2001:db8::7]/c=GB?objectClass?one",
    "mailto:John.Doe@example.com",
    "news:comp.infosystems.www.servers.unix",
    "tel:+1-816-555-1212",
    "telnet://192.0.2.16:80/",
    "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
    "https://user:pass@example.com:8443/a%20b?q=1&r=%C3%A9#frag/ment?",
  ];
  for (const uri of uris) assert.equal(uriProblem(uri), undefined, uri);
});

test("what is not a URI says why", () => {
  const cases: [string, RegExp][] = [
    ["README.md", /no scheme/],
    ["/project/README.md", /no scheme/],
    ["1file:///x", /is not a scheme/],
    ["file:///my notes.md", /path holds the character " " \(U\+0020\)/],
    ["file:///caf\u00e9.md", /U\+00E9/],
    ["https://exa mple.com/", /host holds/],
    ["https://example.com/100%", /"%" not followed by two hex digits/],
    ["https://example.com:80a/", /port "80a" is not a number/],
    ["https://[zz]/", /not an IP literal/],
    ["https://example.com/?q=a b", /query holds/],
    ["https://example.com/#a#b", /fragment holds the character "#"/],
    ["https://example.com/a<b>", /path holds the character "<"/],
  ];
  for (const [uri, why] of cases) assert.match(uriProblem(uri) ?? "valid", why, uri);
});
