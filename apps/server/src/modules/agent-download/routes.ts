import fs from 'node:fs';
import path from 'node:path';
import { AGENT_PLATFORMS, AgentPackagesManifestSchema, type AgentPackagesManifest } from '@zhzy/contracts';
import type { FastifyInstance } from 'fastify';
import { ok } from '../../lib/call.js';
import { notFound } from '../../lib/errors.js';
import { AGENT_DOWNLOAD_TEXT } from '../../i18n/messages.js';

const NO_PACKAGES = AGENT_DOWNLOAD_TEXT.noPackages;

/** The manifest of the packages folder, or null when there is none (or it is not a manifest). */
function readManifest(dir: string): AgentPackagesManifest | null {
  try {
    return AgentPackagesManifestSchema.parse(
      JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')),
    );
  } catch {
    return null;
  }
}

/**
 * The 扫描助手 installers for teachers and for the agent's own update (ADR 0043). Public: an installer holds no
 * school's data, and the agent checks the SHA-256 of what it downloads against this manifest.
 */
export function registerAgentDownloads(app: FastifyInstance, options: { dir: string }): void {
  app.get('/agent/download/manifest', async () => {
    const manifest = readManifest(options.dir);
    if (!manifest) throw notFound(NO_PACKAGES);
    return ok(manifest);
  });

  // Never compressed on the fly: a package is compressed already, and the compressor would send a body shorter than
  // the content-length announced here (the download then hangs or fails its SHA-256) — ADR 0055.
  app.get<{ Params: { platform: string } }>(
    '/agent/download/:platform',
    { compress: false },
    async (request, reply) => {
      const platform = AGENT_PLATFORMS.find((p) => p === request.params.platform);
      const entry = platform ? readManifest(options.dir)?.packages[platform] : undefined;
      const file = entry ? path.join(options.dir, entry.file) : null;
      if (!entry || !file || !fs.existsSync(file)) throw notFound(NO_PACKAGES);
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-length', String(entry.size))
        .header('content-disposition', `attachment; filename="${entry.file}"`)
        .header('x-agent-version', entry.version)
        .header('x-checksum-sha256', entry.sha256)
        .header('cache-control', 'no-cache')
        .send(fs.createReadStream(file));
    },
  );
}
