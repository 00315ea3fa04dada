// write and edit never destroy what they were not asked to change: special files are refused
// (FIFOs and sockets, which take a process or a socket to make, in special-files.test.ts),
// symlinks, hard links, owner, group and mode survive, and edit changes no byte outside its match.
import { statSync } from "node:fs";
import { chmod, chown, link, lstat, mkdir, readFile, readlink, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createEditTool } from "../../tools/edit-tool.js";
import { createWriteTool } from "../../tools/write-tool.js";
import { assertRegularFile, nonRegularKind } from "../../tools/write-target.js";
import { callTool, makeTempDir } from "./harness.js";

const isRoot = process.getuid?.() === 0;
const OTHER_UID = 12345;
const OTHER_GID = 23456;

describe("write and edit refuse what is not a regular file", () => {

  it("edit refuses a directory", async () => {
    const cwd = await makeTempDir();
    await mkdir(join(cwd, "src"));
    await expect(callTool(createEditTool(cwd), { file_path: "src", old_string: "a", new_string: "b" })).rejects.toThrow(
      "Cannot edit src: it is a directory",
    );
  });

  it("a character device is refused by the same check (only stat is called on /dev/null, nothing is written)", () => {
    // Creating a device in a test is not safe; the refusal is the same function write and edit call.
    const info = statSync("/dev/null");
    expect(nonRegularKind(info)).toBe("a character device");
    expect(() => assertRegularFile(info, "/dev/null", "write")).toThrow(
      "Cannot write /dev/null: it is a character device, not a regular file. Nothing was changed",
    );
  });
});

describe("write and edit keep links, owner, group and mode", () => {
  it("write goes through a symlink to its target; the link stays a link", async () => {
    const cwd = await makeTempDir();
    await mkdir(join(cwd, "real"));
    await writeFile(join(cwd, "real/config.json"), "{}");
    await symlink("real/config.json", join(cwd, "config.json"));
    const result = await callTool(createWriteTool(cwd), { file_path: "config.json", content: '{"a":1}' });
    expect(result.content).toBe("Overwrote config.json (7 bytes)");
    expect(await readlink(join(cwd, "config.json"))).toBe("real/config.json");
    expect(await readFile(join(cwd, "real/config.json"), "utf8")).toBe('{"a":1}');
  });

  it("write through a dangling symlink creates its target and keeps the link", async () => {
    const cwd = await makeTempDir();
    await symlink("later/notes.md", join(cwd, "notes.md"));
    const result = await callTool(createWriteTool(cwd), { file_path: "notes.md", content: "hi\n" });
    expect(result.content).toBe("Created notes.md (3 bytes)");
    expect((await lstat(join(cwd, "notes.md"))).isSymbolicLink()).toBe(true);
    expect(await readFile(join(cwd, "later/notes.md"), "utf8")).toBe("hi\n");
  });

  it("edit goes through a symlink; the link stays a link", async () => {
    const cwd = await makeTempDir();
    await writeFile(join(cwd, "target.ts"), "let a = 1;\n");
    await symlink("target.ts", join(cwd, "alias.ts"));
    await callTool(createEditTool(cwd), { file_path: "alias.ts", old_string: "1", new_string: "2" });
    expect((await lstat(join(cwd, "alias.ts"))).isSymbolicLink()).toBe(true);
    expect(await readFile(join(cwd, "target.ts"), "utf8")).toBe("let a = 2;\n");
  });

  it("write and edit keep a hard link: both names still share one file", async () => {
    const cwd = await makeTempDir();
    await writeFile(join(cwd, "a.txt"), "one\n");
    await link(join(cwd, "a.txt"), join(cwd, "b.txt"));
    const inode = (await stat(join(cwd, "a.txt"))).ino;
    await callTool(createWriteTool(cwd), { file_path: "a.txt", content: "two\n" });
    expect(await readFile(join(cwd, "b.txt"), "utf8")).toBe("two\n");
    await callTool(createEditTool(cwd), { file_path: "b.txt", old_string: "two", new_string: "three" });
    expect(await readFile(join(cwd, "a.txt"), "utf8")).toBe("three\n");
    const after = await stat(join(cwd, "a.txt"));
    expect(after.ino).toBe(inode);
    expect(after.nlink).toBe(2);
  });

  it("a shorter write in place leaves no old bytes behind", async () => {
    const cwd = await makeTempDir();
    await writeFile(join(cwd, "a.txt"), "a long first version\n");
    await link(join(cwd, "a.txt"), join(cwd, "b.txt"));
    await callTool(createWriteTool(cwd), { file_path: "a.txt", content: "short\n" });
    expect(await readFile(join(cwd, "b.txt"), "utf8")).toBe("short\n");
  });

  it.skipIf(!isRoot)("write and edit keep another user's owner and group (as root: chown to a uid of nobody here)", async () => {
    const cwd = await makeTempDir();
    const file = join(cwd, "theirs.conf");
    await writeFile(file, "port = 1\n");
    await chmod(file, 0o640);
    await chown(file, OTHER_UID, OTHER_GID);
    const inode = (await stat(file)).ino;
    await callTool(createWriteTool(cwd), { file_path: "theirs.conf", content: "port = 2\n" });
    await callTool(createEditTool(cwd), { file_path: "theirs.conf", old_string: "2", new_string: "3" });
    const after = await stat(file);
    expect(await readFile(file, "utf8")).toBe("port = 3\n");
    expect({ uid: after.uid, gid: after.gid, mode: after.mode & 0o7777, ino: after.ino }).toEqual({
      uid: OTHER_UID,
      gid: OTHER_GID,
      mode: 0o640,
      ino: inode,
    });
  });

  it("an ordinary file is replaced atomically and keeps its mode", async () => {
    const cwd = await makeTempDir();
    const file = join(cwd, "run.sh");
    await writeFile(file, "#!/bin/sh\n");
    await chmod(file, 0o751);
    const inode = (await stat(file)).ino;
    await callTool(createWriteTool(cwd), { file_path: "run.sh", content: "#!/bin/sh\necho hi\n" });
    const after = await stat(file);
    expect(after.mode & 0o7777).toBe(0o751);
    // A new inode: the rename happened, so a reader never saw half a file.
    expect(after.ino).not.toBe(inode);
  });
});

describe("edit changes no byte outside what it replaces", () => {
  it("edits Latin-1 text byte for byte and says so", async () => {
    const cwd = await makeTempDir();
    const file = join(cwd, "menu.txt");
    await writeFile(file, Buffer.from("caf\xe9 au lait\nth\xe9 vert\n", "latin1"));
    const result = await callTool(createEditTool(cwd), { file_path: "menu.txt", old_string: "au lait", new_string: "noir" });
    expect((await readFile(file)).toString("latin1")).toBe("caf\xe9 noir\nth\xe9 vert\n");
    expect(result.content).toContain("the file is not valid UTF-8 (first bad byte at offset 3), so it was edited byte for byte");
  });

  it("matches accented text in a Latin-1 file as Latin-1 and writes Latin-1", async () => {
    const cwd = await makeTempDir();
    const file = join(cwd, "menu.txt");
    await writeFile(file, Buffer.from("caf\xe9\nth\xe9\n", "latin1"));
    const result = await callTool(createEditTool(cwd), { file_path: "menu.txt", old_string: "thé", new_string: "tisane à la menthe" });
    expect((await readFile(file)).toString("latin1")).toBe("caf\xe9\ntisane \xe0 la menthe\n");
    expect(result.content).toContain("old_string matched as Latin-1 bytes and new_string was written as Latin-1");
  });

  it("writes new_string as Latin-1 into a Latin-1 file even when old_string is plain ASCII", async () => {
    const cwd = await makeTempDir();
    const file = join(cwd, "menu.txt");
    await writeFile(file, Buffer.from("caf\xe9\ndessert: none\n", "latin1"));
    await callTool(createEditTool(cwd), { file_path: "menu.txt", old_string: "none", new_string: "crème brûlée" });
    expect((await readFile(file)).toString("latin1")).toBe("caf\xe9\ndessert: cr\xe8me br\xfbl\xe9e\n");
  });

  it("refuses characters Latin-1 cannot hold in a Latin-1 file rather than mixing encodings", async () => {
    const cwd = await makeTempDir();
    const file = join(cwd, "prices.txt");
    await writeFile(file, Buffer.from("caf\xe9: 2 EUR\n", "latin1"));
    await expect(callTool(createEditTool(cwd), { file_path: "prices.txt", old_string: "EUR", new_string: "€" })).rejects.toThrow(
      "prices.txt looks like Latin-1 text (it is not valid UTF-8), and new_string has characters Latin-1 cannot hold",
    );
    expect((await readFile(file)).toString("latin1")).toBe("caf\xe9: 2 EUR\n");
  });

  it("in UTF-8 text with one stray byte, edits the UTF-8 around it and keeps the stray byte", async () => {
    const cwd = await makeTempDir();
    const file = join(cwd, "notes.txt");
    const bytes = Buffer.concat([Buffer.from("naïve\n", "utf8"), Buffer.from([0xff]), Buffer.from("\ncafé\n", "utf8")]);
    await writeFile(file, bytes);
    await callTool(createEditTool(cwd), { file_path: "notes.txt", old_string: "café", new_string: "crème" });
    expect(await readFile(file)).toEqual(
      Buffer.concat([Buffer.from("naïve\n", "utf8"), Buffer.from([0xff]), Buffer.from("\ncrème\n", "utf8")]),
    );
  });

  it("refuses an old_string holding U+FFFD in a file that is not UTF-8", async () => {
    const cwd = await makeTempDir();
    const file = join(cwd, "menu.txt");
    await writeFile(file, Buffer.from("caf\xe9\n", "latin1"));
    await expect(callTool(createEditTool(cwd), { file_path: "menu.txt", old_string: "caf\uFFFD", new_string: "tea" })).rejects.toThrow(
      "menu.txt is not valid UTF-8 (the first bad byte is at offset 3), and old_string contains U+FFFD",
    );
    expect((await readFile(file)).toString("latin1")).toBe("caf\xe9\n");
  });

  it("refuses a binary file and leaves every byte as it was", async () => {
    const cwd = await makeTempDir();
    const file = join(cwd, "blob.bin");
    const bytes = Buffer.alloc(5030);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 37 + 11) % 256;
    bytes.write("MARKER", 100, "latin1");
    await writeFile(file, bytes);
    await expect(callTool(createEditTool(cwd), { file_path: "blob.bin", old_string: "MARKER", new_string: "X" })).rejects.toThrow(
      /blob\.bin looks binary \(a NUL byte at offset \d+\); edit only changes text files/,
    );
    expect(await readFile(file)).toEqual(bytes);
  });

  it("refuses UTF-16 text, naming the encoding", async () => {
    const cwd = await makeTempDir();
    const file = join(cwd, "wide.txt");
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("hello\r\n", "utf16le")]);
    await writeFile(file, bytes);
    await expect(callTool(createEditTool(cwd), { file_path: "wide.txt", old_string: "hello", new_string: "bye" })).rejects.toThrow(
      "wide.txt is encoded as UTF-16 (little-endian)",
    );
    expect(await readFile(file)).toEqual(bytes);
  });

  it("an edit of one line leaves every other byte alone, odd characters included", async () => {
    const cwd = await makeTempDir();
    const file = join(cwd, "odd.md");
    const before = "\u201cquoted\u201d\u00a0text \u2014 dash  \r\nname = 1\n\ufb01nal\u3000line\r\n";
    await writeFile(file, before);
    await callTool(createEditTool(cwd), { file_path: "odd.md", old_string: "name = 1", new_string: "name = 2" });
    expect(await readFile(file, "utf8")).toBe(before.replace("name = 1", "name = 2"));
  });
});
