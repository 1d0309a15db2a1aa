// A Godot 4 resource pack (`.pck`, format 3, Godot 4.4 and later) from files in memory, so that a
// project made of text (project.godot, .tscn, .gd) runs in the web export template without the
// editor. The layout is the one Godot's reader expects
// (https://github.com/godotengine/godot/blob/4.6-stable/core/io/file_access_pack.cpp, `try_open_pack`;
// the writer is core/io/pck_packer.cpp), all little-endian:
//
//   header   "GDPC", u32 format 3, u32 major, minor, patch of the engine, u32 pack flags
//            (PACK_REL_FILEBASE: offsets from the pack's own start), u64 file base, u64 directory
//            offset, 16 reserved u32
//   files    each at file base + its offset, padded to 16 bytes
//   directory  u32 count, then per file: u32 length of the path (padded to 4 with NULs), the path
//            (from the project's root, without res://), u64 offset, u64 size, 16 bytes of MD5
//            (not checked when loading; written for completeness), u32 file flags (0)
import { createHash } from 'node:crypto';

const MAGIC = 0x43504447; // "GDPC"
const FORMAT = 3;
const PACK_REL_FILEBASE = 1 << 1;
const ALIGNMENT = 16;
const HEADER_BYTES = 4 * 6 + 8 + 8 + 16 * 4;

const align = (n: number, to: number): number => Math.ceil(n / to) * to;

/** The engine version the pack says it was made with: the engine refuses a pack from a newer one. */
export interface EngineVersion {
  major: number;
  minor: number;
  patch: number;
}

/** Packs `files` (path from the project's root, such as `addons/x/y.gd`, to its bytes). */
export function writePck(files: ReadonlyMap<string, Uint8Array | string>, version: EngineVersion): Buffer {
  const entries = [...files].map(([path, content]) => {
    if (path.startsWith('res://') || path.startsWith('/')) throw new Error(`${path}: a path from the project's root, without res://`);
    return { path: Buffer.from(path, 'utf8'), data: typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content) };
  });
  const fileBase = align(HEADER_BYTES, ALIGNMENT);
  const offsets: number[] = [];
  let end = 0;
  for (const entry of entries) {
    offsets.push(end);
    end = align(end + entry.data.length, ALIGNMENT);
  }
  const directoryOffset = fileBase + end;
  const directoryBytes = 4 + entries.reduce((sum, entry) => sum + 4 + align(entry.path.length, 4) + 8 + 8 + 16 + 4, 0);
  const out = Buffer.alloc(directoryOffset + directoryBytes);

  let at = 0;
  const u32 = (value: number) => (at = out.writeUInt32LE(value, at));
  const u64 = (value: number) => (at = out.writeBigUInt64LE(BigInt(value), at));
  u32(MAGIC);
  u32(FORMAT);
  u32(version.major);
  u32(version.minor);
  u32(version.patch);
  u32(PACK_REL_FILEBASE);
  u64(fileBase);
  u64(directoryOffset);
  // (16 reserved u32 and the padding up to the file base: already zero.)

  entries.forEach((entry, i) => entry.data.copy(out, fileBase + offsets[i]!));

  at = directoryOffset;
  u32(entries.length);
  entries.forEach((entry, i) => {
    const padded = align(entry.path.length, 4);
    u32(padded);
    entry.path.copy(out, at);
    at += padded;
    u64(offsets[i]!);
    u64(entry.data.length);
    at += createHash('md5').update(entry.data).digest().copy(out, at);
    u32(0);
  });
  if (at !== out.length) throw new Error(`pck: wrote ${at} of ${out.length} bytes`);
  return out;
}
