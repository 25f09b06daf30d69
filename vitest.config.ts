import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/support/globalSetup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // a worker process runs file after file with its modules loaded once: importing the service's module graph
    // took about a quarter of each file's time (every file builds its own server, database and layers, so no
    // state is shared but process-wide ones: Effect's metric registry, module-level memos)
    isolate: false,
    maxWorkers: 2,
    minWorkers: 1
  }
})
