// The raw config types are derived from CONFIG_SCHEMA (src/config/raw.ts), and the typed Config's value sets must
// be the schema's. These assertions are checked by the type checker (`npm run typecheck`, part of `npm test`): a
// schema the derivation gave up on (any) or an enum that drifted from the schema fails there.
import { expectTypeOf, test } from "vitest";
import type { RawClient, RawConfig, RawLibrary, RawOAuth, RawPlugin, RawSource } from "../../src/config/raw.js";
import { CONFIG_SCHEMA } from "../../src/config/schema.js";
import { OAUTH_ALGORITHMS } from "../../src/config/schema-oauth.js";
import type { ConflictRule, Dialect, GuardSeverity, Naming, SourceConfig } from "../../src/config/types.js";
import type { Severity } from "../../src/guard/types.js";

test("the raw config has exactly the schema's top-level keys, and the libraries key is required", () => {
  expectTypeOf<RawConfig>().not.toBeAny();
  expectTypeOf<keyof RawConfig>().toEqualTypeOf<keyof typeof CONFIG_SCHEMA.properties>();
  expectTypeOf<RawConfig["libraries"]>().toEqualTypeOf<RawLibrary[]>();
  expectTypeOf<RawConfig["sources"]>().toEqualTypeOf<RawSource[] | undefined>();
});

type Defs = (typeof CONFIG_SCHEMA)["$defs"];

test("each list item has exactly its definition's keys", () => {
  expectTypeOf<keyof RawSource>().toEqualTypeOf<keyof Defs["source"]["properties"]>();
  expectTypeOf<keyof RawPlugin>().toEqualTypeOf<keyof Defs["plugin"]["properties"]>();
  expectTypeOf<keyof RawLibrary>().toEqualTypeOf<keyof Defs["library"]["properties"]>();
  expectTypeOf<keyof RawClient>().toEqualTypeOf<keyof Defs["client"]["properties"]>();
  expectTypeOf<keyof RawOAuth>().toEqualTypeOf<keyof Defs["oauth"]["properties"]>();
});

test("the typed config's value sets are the schema's", () => {
  expectTypeOf<Dialect>().toEqualTypeOf<NonNullable<RawPlugin["dialect"]>>();
  expectTypeOf<Naming>().toEqualTypeOf<NonNullable<RawPlugin["naming"]>>();
  expectTypeOf<Naming>().toEqualTypeOf<NonNullable<RawLibrary["naming"]>>();
  expectTypeOf<ConflictRule>().toEqualTypeOf<NonNullable<RawLibrary["conflicts"]>>();
  expectTypeOf<NonNullable<SourceConfig["cache"]>>().toEqualTypeOf<NonNullable<RawSource["cache"]>>();
  expectTypeOf<NonNullable<RawOAuth["algorithms"]>[number]>().toEqualTypeOf<(typeof OAUTH_ALGORITHMS)[number]>();
  expectTypeOf<RawClient["token"]>().toEqualTypeOf<{ env: string }>();
  expectTypeOf<GuardSeverity>().toEqualTypeOf<NonNullable<NonNullable<RawConfig["guard"]>["quarantine"]>[number]>();
  expectTypeOf<GuardSeverity>().toEqualTypeOf<NonNullable<NonNullable<RawLibrary["guard"]>["quarantine"]>[number]>();
  expectTypeOf<GuardSeverity>().toEqualTypeOf<Severity>();
});
