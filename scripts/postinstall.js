// Runs after npm install / npm ci: builds the bundled WASM plugins (AssemblyScript -> .wasm).
// Filled in by the WASM host work; kept tolerant so a failed optional build never breaks install.
