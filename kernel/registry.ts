// What plugins registered, by kind. Registration is only open during a plugin's setup().
import type { FastifyPluginAsync } from 'fastify';
import type { PluginManifest } from './manifest.ts';
import type { PluginStatus, RegistryView, Surface } from './plugin-api.ts';
import type { AnalysisTool, ComplianceModule, Detector, Guardrail, LlmBackend, Skill } from './contracts/index.ts';
import type { WasmInstance } from './wasm/types.ts';
import type { Protection } from './protect.ts';

export interface DetectorPluginDescriptor {
  id: string;
  dir: string;
  entry: string;
  runtime: 'ts' | 'wasm';
  config: Record<string, unknown>;
  manifest: PluginManifest;
}

export class Registry implements RegistryView {
  readonly detectorList: Detector[] = [];
  readonly detectorDescriptors: DetectorPluginDescriptor[] = [];
  readonly toolMap = new Map<string, AnalysisTool>();
  readonly guardrailList: Guardrail[] = [];
  readonly skillMap = new Map<string, Skill>();
  readonly llmMap = new Map<string, LlmBackend>();
  readonly complianceList: ComplianceModule[] = [];
  readonly routes: Array<{ plugin: string; surface: Surface; fn: FastifyPluginAsync }> = [];
  readonly surfaceHooks: Array<{ plugin: string; surface: Surface; fn: (app: any) => unknown }> = [];
  readonly services = new Map<string, unknown>();
  /** False while plugins are being set up: services declared requires_lazy resolve only after. */
  setupDone = false;
  readonly statuses = new Map<string, PluginStatus>();
  readonly wasmInstances = new Map<string, WasmInstance>();
  readonly startHooks: Array<{ plugin: string; fn: () => unknown }> = [];
  readonly closeHooks: Array<{ plugin: string; fn: () => unknown }> = [];
  /** Surfaces each security plugin guards (manifest `protects`), kept even when the plugin
   *  failed to load: that is when the kernel answers 503 on them. */
  readonly protections = new Map<string, Protection[]>();

  /** Failed security plugins whose protections cover this request, by plugin id. */
  failedProtectors(match: (p: Protection) => boolean): string[] {
    const out: string[] = [];
    for (const [id, list] of this.protections) {
      if (this.statuses.get(id)?.status === 'error' && list.some(match)) out.push(id);
    }
    return out;
  }

  detectors() {
    return [...this.detectorList];
  }
  detectorPlugins() {
    return [...this.detectorDescriptors];
  }
  tools() {
    return [...this.toolMap.values()];
  }
  tool(name: string) {
    return this.toolMap.get(name);
  }
  // The guardrail and skill lists are read on every chat turn (each chain run, each model call):
  // one frozen copy is kept and made again only when a plugin registered more (they are only ever
  // added, at setup). Frozen, so no caller can change what the next one reads.
  private guardrailView: { n: number; list: readonly Guardrail[] } = { n: -1, list: [] };
  private skillView: { n: number; list: readonly Skill[] } = { n: -1, list: [] };
  guardrails(): Guardrail[] {
    if (this.guardrailView.n !== this.guardrailList.length)
      this.guardrailView = {
        n: this.guardrailList.length,
        list: Object.freeze([...this.guardrailList].sort((a, b) => a.order - b.order)),
      };
    return this.guardrailView.list as Guardrail[];
  }
  skills(): Skill[] {
    if (this.skillView.n !== this.skillMap.size)
      this.skillView = { n: this.skillMap.size, list: Object.freeze([...this.skillMap.values()]) };
    return this.skillView.list as Skill[];
  }
  skill(name: string) {
    return this.skillMap.get(name);
  }
  llms() {
    return [...this.llmMap.values()];
  }
  llm(provider: string) {
    return this.llmMap.get(provider);
  }
  compliance() {
    return [...this.complianceList];
  }
  plugins() {
    return [...this.statuses.values()];
  }
  wasmInstance(id: string) {
    return this.wasmInstances.get(id);
  }
}
