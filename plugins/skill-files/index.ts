// Workspace file skills: `files` lists and reads (capability file_read) and `write_file` writes
// (file_write), both confined to the workspace root (settings.workspace / VIGIL_WORKSPACE) —
// `..`, absolute paths and symlinks that lead out are refused (lib/gateway/agent/workspace-path.ts).
// Writes never enter a `.git` folder: a tenant who could write .git/config or .git/hooks could
// make the next git command run a program. The server's data dir and config file are off limits
// even when they lie inside the workspace. Reads are size capped and binary files are described
// rather than dumped into the model's context.
import fs from 'node:fs/promises';
import { constants as C } from 'node:fs';
import path from 'node:path';
import { definePlugin, type SkillResult } from '../../kernel/index.ts';
import { PathError, inside, protectedPaths, realRoot, resolveExisting, resolveForWrite } from '../../lib/gateway/agent/workspace-path.ts';

interface FilesConfig extends Record<string, unknown> {
  max_read_bytes: number;
  max_write_bytes: number;
  max_entries: number;
}

const fail = (e: unknown): SkillResult =>
  e instanceof PathError
    ? { ok: false, output: null, error: `${e.code}: ${e.message}` }
    : { ok: false, output: null, error: (e as Error).message };

type Entry = { path: string; type: 'file' | 'dir' | 'symlink' | 'other'; size: number | null };

async function list(
  root: string,
  rel: string,
  depth: number,
  max: number,
  protect: string[],
): Promise<{ entries: Entry[]; truncated: boolean }> {
  const out: Entry[] = [];
  const walk = async (dirAbs: string, level: number): Promise<boolean> => {
    const ents = (await fs.readdir(dirAbs, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
    for (const e of ents) {
      if (out.length >= max) return false;
      const abs = path.join(dirAbs, e.name);
      const type = e.isSymbolicLink() ? 'symlink' : e.isDirectory() ? 'dir' : e.isFile() ? 'file' : 'other';
      const size = type === 'file' ? ((await fs.stat(abs).catch(() => null))?.size ?? null) : null;
      out.push({ path: path.relative(root, abs), type, size });
      // Symlinked folders are listed, never entered: they may point anywhere.
      if (type === 'dir' && level < depth && e.name !== '.git' && e.name !== 'node_modules' && !protect.some((q) => inside(q, abs))) {
        if (!(await walk(abs, level + 1))) return false;
      }
    }
    return true;
  };
  const complete = await walk(path.join(root, rel), 1);
  return { entries: out, truncated: !complete };
}

export default definePlugin<FilesConfig>({
  setup(ctx) {
    const cfg = ctx.config;
    const protect = protectedPaths(ctx.services.settings);
    ctx.registerSkill({
      name: 'files',
      description: 'List folders and read text files inside the workspace. op "list" (path, depth 1-5) or "read" (path, max_bytes).',
      capabilities: ['file_read'],
      inputSchema: {
        type: 'object',
        required: ['op'],
        additionalProperties: false,
        properties: {
          op: { enum: ['list', 'read'] },
          path: { type: 'string', minLength: 1, maxLength: 4096, default: '.', description: 'Relative to the workspace root' },
          depth: { type: 'integer', minimum: 1, maximum: 5, default: 1 },
          max_bytes: { type: 'integer', minimum: 1, maximum: cfg.max_read_bytes },
        },
      },
      async call(input, sc): Promise<SkillResult> {
        try {
          const root = await realRoot(sc.workspace);
          // eslint-disable-next-line @typescript-eslint/no-base-to-string -- input is schema-validated (path: string)
          const target = await resolveExisting(root, String(input.path ?? '.'), { protect });
          const st = await fs.stat(target.abs);
          if (input.op === 'list') {
            if (!st.isDirectory()) return { ok: false, output: null, error: `not_a_directory: "${target.rel}" is a file; use op "read"` };
            const r = await list(root, target.rel, Number(input.depth ?? 1), cfg.max_entries, protect);
            return { ok: true, output: { path: target.rel, ...r } };
          }
          if (!st.isFile()) return { ok: false, output: null, error: `not_a_file: "${target.rel}" is not a regular file` };
          const limit = Math.min(Number(input.max_bytes ?? cfg.max_read_bytes), cfg.max_read_bytes);
          const fh = await fs.open(target.abs, 'r');
          try {
            const buf = Buffer.alloc(Math.min(limit, st.size));
            const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
            const data = buf.subarray(0, bytesRead);
            if (data.includes(0)) return { ok: true, output: { path: target.rel, size: st.size, binary: true, content: null } };
            return {
              ok: true,
              output: { path: target.rel, size: st.size, truncated: st.size > bytesRead, content: data.toString('utf8') },
            };
          } finally {
            await fh.close();
          }
        } catch (e) {
          return fail(e);
        }
      },
    });
    ctx.registerSkill({
      name: 'write_file',
      description:
        'Create or overwrite a text file inside the workspace (missing folders are created). Refuses to replace an existing file unless overwrite is true.',
      capabilities: ['file_write'],
      inputSchema: {
        type: 'object',
        required: ['path', 'content'],
        additionalProperties: false,
        properties: {
          path: { type: 'string', minLength: 1, maxLength: 4096 },
          content: { type: 'string', maxLength: cfg.max_write_bytes },
          overwrite: { type: 'boolean', default: false },
        },
      },
      async call(input, sc): Promise<SkillResult> {
        try {
          const root = await realRoot(sc.workspace);
          const target = await resolveForWrite(root, String(input.path), { protect });
          const content = String(input.content);
          if (Buffer.byteLength(content) > cfg.max_write_bytes)
            return { ok: false, output: null, error: `content is larger than ${cfg.max_write_bytes} bytes` };
          await fs.mkdir(path.dirname(target.abs), { recursive: true });
          // Re-check after mkdir: a folder created above cannot have become a link, but the parent chain is now final.
          await resolveForWrite(root, String(input.path), { protect });
          const flags = C.O_WRONLY | C.O_CREAT | C.O_NOFOLLOW | (input.overwrite ? C.O_TRUNC : C.O_EXCL);
          let fh;
          try {
            fh = await fs.open(target.abs, flags, 0o644);
          } catch (e) {
            if ((e as NodeJS.ErrnoException).code === 'EEXIST')
              return { ok: false, output: null, error: `file_exists: "${target.rel}" exists; pass overwrite: true to replace it` };
            throw e;
          }
          try {
            await fh.writeFile(content, 'utf8');
          } finally {
            await fh.close();
          }
          return { ok: true, output: { path: target.rel, bytes: Buffer.byteLength(content), overwritten: !!input.overwrite } };
        } catch (e) {
          return fail(e);
        }
      },
    });
  },
});
