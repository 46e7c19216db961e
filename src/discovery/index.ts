// The Agent Skills discovery index and the artifacts installers download: a flat namespace over the scoped shelf,
// deterministic archives whose SKILL.md cites relative paths. Pure but for its caches (one `Discovery` per server).
export { ArtifactError, SHELF_FOLDER, buildArtifact, fitsUstar, type Artifact, type ArtifactType, type ReadBytes } from "./artifact.js";
export {
  ARCHIVE_FILE,
  DEFAULT_DISCOVERY_OPTIONS,
  DISCOVERY_SCHEMA,
  Discovery,
  WELL_KNOWN_PATH,
  artifactPath,
  basePath,
  isUnder,
  type Base,
  type DiscoveryIndex,
  type DiscoveryOptions,
  type IndexEntry,
} from "./discovery-index.js";
export { flatNames, isInstallableName, type FlatNames, type Shadowed } from "./names.js";
