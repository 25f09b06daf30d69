/**
 * The import rules between the service's folders (docs/architecture.md, "Folders and the import rule"), checked by
 * `npm run lint:deps` and, on every `npm test`, by test/architecture/Dependencies.test.ts (which also checks that no
 * two areas import each other, through any number of steps: dependency-cruiser has no folder-level cycle rule).
 *
 * Every module is in one class:
 * - roots: the composition roots, which may import anything in src/: src/{server,areas,workflows,index,startup,config}.ts,
 *   src/api/Api.ts (the contract assembled from every area's group), src/db/migrate.ts (the one list of migrations,
 *   from every area's light Migrations.ts) and src/cli/**; bin/main.ts, the entry point, assembles src/ and demo/;
 * - kernel: shared pieces that import no area and no root: schema/ (imports only schema/), layers/ (layers/ and schema/),
 *   and in src/: http/ (the request pipeline), api/ except Api.ts (operation(), policies, security), db/ except
 *   migrate.ts (storage helpers), identity/ (locators and their resolver), agentAccess/ (who may act on an operated agent) and Area.ts;
 * - areas: every other folder under src/ (accounts, agents, runtime, mcp, mcpServer, trust, wallets, ...), sub-feature
 *   folders (agents/imports, trust/reputation) included in their area. An area reaches another area only through
 *   that area's face, `src/<area>/index.ts`; an area imports no root except the contract, src/api/Api.ts, which its
 *   handlers (Http.ts) are built against;
 * - demo: demo/ (seed, manifest, examples), never imported by src/, layers/ or schema/.
 */

/** Kernel folders and files of src/ (see above). */
const kernelSrc = ["^src/http/", "^src/api/(?!Api\\.ts$)", "^src/db/(?!migrate\\.ts$)", "^src/identity/", "^src/agentAccess/", "^src/Area\\.ts$"]
/** Roots (see above). */
const roots = ["^src/(server|areas|workflows|index|startup|config)\\.ts$", "^src/api/Api\\.ts$", "^src/db/migrate\\.ts$", "^src/cli/"]
/** What is not an area module: kernel, roots, top-level files, demo data. */
const notArea = [...kernelSrc, ...roots, "^src/[^/]+$"]

/** @type {import("dependency-cruiser").IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "area-internals",
      severity: "error",
      comment:
        "An area imports another area only through its face, src/<area>/index.ts (service tags, errors, schemas, " +
        "pure functions; never its Repo). Export what is needed from that index.ts, or move the shared piece down.",
      from: { path: "^src/([^/]+)/", pathNot: notArea },
      to: {
        path: "^src/[^/]+/",
        pathNot: ["^src/$1/", "^src/[^/]+/index\\.ts$", ...notArea]
      }
    },
    {
      name: "area-imports-root",
      severity: "error",
      comment:
        "Roots assemble the areas; an area imports no root except the contract (src/api/Api.ts) its handlers are " +
        "built against.",
      from: { path: "^src/[^/]+/", pathNot: notArea },
      to: { path: roots, pathNot: "^src/api/Api\\.ts$" }
    },
    {
      name: "kernel-imports-area",
      severity: "error",
      comment:
        "Kernel modules (src/http, src/api except Api.ts, src/db, src/identity, src/agentAccess, src/Area.ts) are " +
        "shared by the areas and import none of them, nor a root: move the piece they need down, or invert with a " +
        "Context.Tag the area implements and the root provides.",
      from: { path: kernelSrc },
      to: { path: "^src/", pathNot: [...kernelSrc] }
    },
    {
      name: "layers-schema-import-src",
      severity: "error",
      comment: "layers/ and schema/ are below src/: they never import it (nor demo/).",
      from: { path: "^(layers|schema)/" },
      to: { path: "^(src|demo)/" }
    },
    {
      name: "schema-imports-layers",
      severity: "error",
      comment: "schema/ holds contract types with no I/O: it imports nothing of ours but schema/.",
      from: { path: "^schema/" },
      to: { path: "^layers/" }
    },
    {
      name: "production-imports-demo",
      severity: "error",
      comment: "Production code (src/, layers/, schema/) never imports demo/: the demo tree is assembled around it.",
      from: { path: "^(src|layers|schema)/" },
      to: { path: "^demo/" }
    },
    {
      name: "module-cycle",
      severity: "error",
      comment:
        "No module imports itself back through value imports (an ES module cycle evaluates one side half-initialised). " +
        "Type-only imports are erased and may close a loop.",
      from: {},
      to: { circular: true, dependencyTypesNot: ["type-only"], viaOnly: { dependencyTypesNot: ["type-only"] } }
    }
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".js", ".mjs", ".cjs", ".json"] }
  }
}
