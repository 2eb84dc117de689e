// Offline multi-version Solidity compilation (solc-js, selected by pragma).
export {
  compileSolidity,
  compileTask,
  compileMemoStats,
  oneLine,
  LineIndex,
  COMPILE_MODULE,
  sourceKeyFor,
  CompileStopped,
  type SolcRunner,
} from './compile.ts';
export type { CompileRequest, CompileResult, CompilerDiagnostic, CompiledContract } from './compile.ts';
export {
  chooseCompiler,
  extractPragma,
  installedCompilers,
  bundledCompilers,
  refreshInstalledCompilers,
  blankPragmas,
  stripCommentsAndStrings,
} from './versions.ts';
export type { CompilerChoice, InstalledCompiler, PragmaInfo } from './versions.ts';
export { loadCompiler, loadedVersions } from './solc-loader.ts';
