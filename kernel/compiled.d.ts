// Types of kernel/compiled.js (plain JavaScript: it runs before any TypeScript loader).
export function mirrorDir(): string;
export function prepareMirror(opts?: { quiet?: boolean; withTests?: boolean }): Promise<string | null>;
export function ensureTsx(): Promise<void>;
export function compiledPath(file: string): string | null;
export function compiledVendorPath(pkg: string, relInPackage: string): string | null;
export function importModule(file: string): Promise<any>;
