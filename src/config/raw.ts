// The config as written, before any name is checked: types derived from CONFIG_SCHEMA, so the shape is declared
// once (a key added to the schema is a key here). Only ever holds data ajv accepted.
import type { FromSchema } from "json-schema-to-ts";
import type { CONFIG_SCHEMA } from "./schema.js";

/** Defaults are filled in by the builder, not by ajv: a key with a `default` stays optional here. */
export type RawConfig = FromSchema<typeof CONFIG_SCHEMA, { keepDefaultedPropertiesOptional: true }>;
export type RawSource = NonNullable<RawConfig["sources"]>[number];
export type RawPlugin = NonNullable<RawConfig["plugins"]>[number];
export type RawLibrary = RawConfig["libraries"][number];
export type RawClient = NonNullable<RawConfig["clients"]>[number];
export type RawScope = NonNullable<RawClient["scope"]>;
export type RawOAuth = NonNullable<RawConfig["oauth"]>;
export type RawGrant = NonNullable<RawOAuth["default"]>;
export type RawFeeds = NonNullable<RawConfig["feeds"]>;
export type RawUsage = NonNullable<RawConfig["usage"]>;
