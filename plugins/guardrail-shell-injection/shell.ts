// Shell-injection layer for tool arguments: command chaining and substitution metacharacters
// (`;`, `&&`, `||`, `|`, backticks, `$(...)`, redirections, newline-separated commands) and
// known-destructive or remote-control commands (rm -rf /, curl|sh, nc -e, reverse shells, mkfs,
// dd to a device, chmod 777 /, fork bombs, PowerShell download-and-run). A metacharacter only
// counts when a command follows it, so prose ("A; B", "rock & roll", "x | y" tables) and
// Markdown are left alone. Tool arguments of a skill whose job *is* a shell command should set
// this layer's threshold above 0.75 (only dangerous commands then) or its mode to log.
import type { GuardrailFinding } from '../../kernel/index.ts';
import { defineLayer } from '../../lib/guardrails/layer.ts';

export interface ShellSettings extends Record<string, unknown> {
  threshold: number;
}
export const shellDefaults: ShellSettings = { threshold: 0.6 };

const CMD =
  '(?:rm|curl|wget|nc|ncat|netcat|bash|sh|zsh|dash|ksh|python[23]?|perl|ruby|php|node|cat|echo|printf|chmod|chown|mkfs|dd|kill|pkill|killall|shutdown|reboot|halt|poweroff|sudo|su|ssh|scp|telnet|socat|base64|eval|exec|xargs|tee|cp|mv|ls|id|whoami|uname|env|export|touch|mkdir|tar|nohup|crontab|systemctl|service|useradd|passwd|iptables|powershell|pwsh|cmd|certutil|bitsadmin|git|npm|pip|apt|apt-get|yum|docker|kubectl|openssl|awk|sed|find|grep|head|tail|sleep|ping|nslookup|dig|mail|sendmail|ftp|tftp)';

interface Pattern {
  kind: string;
  weight: number;
  re: RegExp;
}

const P: Pattern[] = [
  // Dangerous commands.
  {
    kind: 'destructive_rm',
    weight: 0.97,
    re: /\brm\s+(?:-{1,2}[\w-]+\s+)*(?:-[a-zA-Z]*[rR][a-zA-Z]*[fF]?[a-zA-Z]*|--recursive)\s+(?:-{1,2}[\w-]+\s+)*(?:\/(?:\*|bin|boot|etc|home|lib|opt|root|sbin|srv|usr|var)?|~\/?|\*|\$HOME\/?|\.\.?\/?|--no-preserve-root)(?=$|[\s;&|)`'"])/g,
  },
  {
    kind: 'download_execute',
    weight: 0.97,
    re: /\b(?:curl|wget|fetch)\b[^\n|;&]{0,200}\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b|\b(?:curl|wget)\b[^\n|;&]{0,200}\|\s*(?:sudo\s+)?(?:python[23]?|perl|ruby|php|node)\b|\b(?:ba)?sh\s+<\(\s*(?:curl|wget)|\b(?:ba)?sh\s+-c\s+["']?\$\(\s*(?:curl|wget)/g,
  },
  {
    kind: 'reverse_shell',
    weight: 0.98,
    re: /\b(?:nc|ncat|netcat)\b[^\n;|&]{0,80}\s-(?:e|c)\s*\S*(?:sh|cmd)\b|\/dev\/(?:tcp|udp)\/[\w.-]+\/\d+|\bbash\s+-i\s*>&|\bsocat\b[^\n]{0,80}exec:|\bmkfifo\b[^\n]{0,120}\b(?:nc|ncat|netcat)\b|\bsocket\.socket\([^\n]{0,200}(?:subprocess|pty\.spawn|os\.dup2)|\bfsockopen\s*\(|\bIO::Socket::INET\b|\bTCPSocket\.(?:new|open)\b[^\n]{0,100}exec/gi,
  },
  {
    kind: 'disk_wipe',
    weight: 0.97,
    re: /\bmkfs(?:\.\w+)?\s+\/dev\/|\bdd\b[^\n;|&]{0,120}\bof=\/dev\/(?:sd|hd|nvme|xvd|vd|disk|mmcblk|md)\w*|>\s*\/dev\/(?:sd|hd|nvme|xvd|vd|disk|mmcblk)\w*|\bshred\b[^\n]{0,60}\/dev\/|\bwipefs\b|\bformat\s+[a-z]:/gi,
  },
  {
    kind: 'permission_open',
    weight: 0.9,
    re: /\bchmod\s+(?:-R\s+)?(?:0?777|a\+rwx|ugo\+rwx|\+s)\s+\/(?:\s|$|etc|bin|usr|var|root|home)?|\bchown\s+-R\s+\S+\s+\/(?:\s|$)/g,
  },
  {
    kind: 'fork_bomb',
    weight: 0.98,
    re: /([\w:]{1,10})\s*\(\s*\)\s*\{\s*\1\s*\|\s*\1\s*&\s*\}\s*;\s*\1|\bwhile\s*(?:true|:)\s*;\s*do\s+\S+\s*&\s*done|%0\|%0/g,
  },
  {
    kind: 'system_control',
    weight: 0.85,
    re: /(?:^|[;&|`(]\s*|\n\s*)(?:sudo\s+)?(?:shutdown|reboot|halt|poweroff|init\s+[06])\b|\bkill\s+-9\s+-1\b|\bcrontab\s+-r\b|\bhistory\s+-c\b|\bunset\s+HISTFILE\b/g,
  },
  {
    kind: 'encoded_execute',
    weight: 0.95,
    re: /\bbase64\s+(?:-d|--decode|-D)\b[^\n]{0,40}\|\s*(?:ba|z)?sh\b|\beval\s+["']?\$\(\s*(?:echo|printf|base64|curl|wget)|\bpowershell(?:\.exe)?\b[^\n]{0,40}\s-(?:e|en|enc|encodedcommand)\s+[A-Za-z0-9+/=]{16,}/gi,
  },
  {
    kind: 'powershell_download',
    weight: 0.95,
    re: /\b(?:IEX|Invoke-Expression)\b[^\n]{0,40}(?:New-Object\s+Net\.WebClient|DownloadString|Invoke-WebRequest|iwr)|\bRemove-Item\b[^\n]{0,40}-Recurse[^\n]{0,20}-Force[^\n]{0,20}[A-Z]:\\|\bdel\s+\/[fsq]\s+\/[fsq][^\n]{0,20}[A-Z]:\\|\bcertutil\b[^\n]{0,40}-urlcache/gi,
  },
  {
    kind: 'sensitive_file',
    weight: 0.75,
    re: /(?:^|[\s;&|`'"(=])(?:\/etc\/(?:shadow|sudoers|gshadow)|~?\/?\.ssh\/(?:id_[a-z0-9]+|authorized_keys)|\/root\/\.ssh|\.aws\/credentials|\.env\b|\/proc\/self\/environ)/g,
  },
  // Metacharacters that chain or substitute a command.
  { kind: 'command_substitution', weight: 0.8, re: new RegExp(`\\$\\(\\s*${CMD}\\b[^)]{0,200}\\)|\`\\s*${CMD}\\b[^\`\\n]{0,200}\``, 'g') },
  {
    kind: 'command_chaining',
    weight: 0.75,
    re: new RegExp(`(?:;|&&|\\|\\||\\|(?!\\|)|\\n|\\r|%0a|%0d|&(?!&))\\s*(?:sudo\\s+)?${CMD}(?=$|[\\s;&|<>'"\`)])`, 'gi'),
  },
  {
    kind: 'redirection',
    weight: 0.7,
    re: /(?:^|[^<>\w-])(?:>>?|2>&1|&>)\s*(?:\/(?:etc|bin|usr|var|root|dev\/(?!null))|~\/\.(?:bashrc|profile|ssh|zshrc)|\.(?:bashrc|profile))|<\s*\/etc\/(?:passwd|shadow)/g,
  },
];

export interface ShellHit {
  kind: string;
  weight: number;
  start: number;
  end: number;
}

export function findShellInjection(text: string): ShellHit[] {
  const hits: ShellHit[] = [];
  for (const p of P) {
    p.re.lastIndex = 0;
    let m: RegExpExecArray | null;
    let c = 0;
    while ((m = p.re.exec(text)) && c++ < 50) {
      hits.push({ kind: p.kind, weight: p.weight, start: m.index, end: m.index + m[0].length });
      if (m[0].length === 0) p.re.lastIndex++;
    }
  }
  return hits;
}

export function createShellInjectionGuardrail(overrides: Record<string, unknown> = {}) {
  return defineLayer<ShellSettings>(
    {
      name: 'shell_injection',
      description: 'Command chaining/substitution metacharacters and destructive or remote-control commands in tool arguments',
      defaultMode: 'block',
      directions: ['tool_args'],
      order: 40,
      defaults: shellDefaults,
      build(s) {
        return (text: string): GuardrailFinding[] =>
          findShellInjection(text)
            .filter((h) => h.weight >= s.threshold)
            .map((h) => ({
              layer: 'shell_injection',
              kind: h.kind,
              start: h.start,
              end: h.end,
              score: h.weight,
              replacement: '[REDACTED:shell]',
            }));
      },
    },
    overrides,
  );
}
