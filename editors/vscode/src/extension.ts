// The gpuopt extension for VS Code: a thin client that starts `gpuopt lsp`
// over stdio for Python documents. Diagnostics, quick fixes, fix-all and
// hover all come from the server; this file only resolves the binary, passes
// the settings through, and wires three commands.
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as vscode from "vscode";
import {
  DidChangeConfigurationNotification,
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
  TransportKind,
} from "vscode-languageclient/node";

// LSP commands implemented by the server (workspace/executeCommand). The
// language client registers these IDs itself when the server advertises
// them, so the palette commands below use different IDs.
const SERVER_SHOW_HARDWARE = "gpuopt.showHardware";
const SERVER_FIX_ALL = "gpuopt.fixAll";

/** The settings the server understands; sent as initializationOptions and as
 *  `settings.gpuopt` of workspace/didChangeConfiguration. */
interface ServerSettings {
  select: string[];
  ignore: string[];
  unsafeFixes: boolean;
  targetGpu: string;
}

let client: LanguageClient | undefined;
/** Where the extension is installed; a platform-specific .vsix carries the
 *  gpuopt binary in its bin/ folder. */
let extensionDir = "";
let log: vscode.LogOutputChannel;
let hardwareChannel: vscode.OutputChannel | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  extensionDir = context.extensionPath;
  log = vscode.window.createOutputChannel("gpuopt", { log: true });
  context.subscriptions.push(log);

  context.subscriptions.push(
    vscode.commands.registerCommand("gpuopt.showHardwareProfile", showHardware),
    vscode.commands.registerCommand("gpuopt.fixAllInFile", fixAllInFile),
    vscode.commands.registerCommand("gpuopt.restartServer", restartServer),
    vscode.workspace.onDidChangeConfiguration(onConfigurationChanged),
  );

  await startServer();
}

export async function deactivate(): Promise<void> {
  await stopServer();
}

function readSettings(): ServerSettings {
  const cfg = vscode.workspace.getConfiguration("gpuopt");
  return {
    select: cfg.get<string[]>("select", []),
    ignore: cfg.get<string[]>("ignore", []),
    unsafeFixes: cfg.get<boolean>("unsafeFixes", false),
    targetGpu: cfg.get<string>("targetGpu", ""),
  };
}

/** Resolves `gpuopt.path` (with `~` and `${workspaceFolder}` expanded); when
 *  it is empty, the binary bundled in this platform's .vsix, else `gpuopt`
 *  on PATH. `found` is false when nothing usable is there. */
function resolveBinary(): { command: string; found: boolean } {
  const configured = vscode.workspace.getConfiguration("gpuopt").get<string>("path", "").trim();
  if (configured !== "") {
    let p = configured;
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    if (folder) {
      p = p.replace(/\$\{workspaceFolder\}/g, folder);
    }
    if (p === "~" || p.startsWith("~/") || p.startsWith("~\\")) {
      p = path.join(os.homedir(), p.slice(1));
    }
    if (!path.isAbsolute(p) && folder && (p.includes("/") || p.includes("\\"))) {
      p = path.resolve(folder, p);
    }
    return { command: p, found: isExecutable(p) || (!p.includes("/") && !p.includes("\\") && which(p) !== undefined) };
  }
  const bundled = bundledBinary();
  if (bundled !== undefined) {
    return { command: bundled, found: true };
  }
  const onPath = which("gpuopt");
  return { command: onPath ?? "gpuopt", found: onPath !== undefined };
}

/** The binary a platform-specific .vsix ships in bin/, if this one has it. */
function bundledBinary(): string | undefined {
  if (extensionDir === "") {
    return undefined;
  }
  const p = path.join(extensionDir, "bin", process.platform === "win32" ? "gpuopt.exe" : "gpuopt");
  if (!isExecutable(p) && fs.existsSync(p)) {
    try {
      fs.chmodSync(p, 0o755); // an unzip that dropped the mode bits
    } catch {
      return undefined;
    }
  }
  return isExecutable(p) ? p : undefined;
}

function isExecutable(p: string): boolean {
  try {
    const st = fs.statSync(p);
    if (!st.isFile()) {
      return false;
    }
    if (process.platform === "win32") {
      return true;
    }
    fs.accessSync(p, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function which(name: string): string | undefined {
  const dirs = (process.env.PATH ?? "").split(path.delimiter).filter((d) => d !== "");
  const exts =
    process.platform === "win32"
      ? ["", ...(process.env.PATHEXT ?? ".EXE;.CMD;.BAT").split(";").map((e) => e.toLowerCase())]
      : [""];
  for (const dir of dirs) {
    for (const ext of exts) {
      const candidate = path.join(dir, name + ext);
      if (isExecutable(candidate)) {
        return candidate;
      }
    }
  }
  return undefined;
}

async function startServer(): Promise<void> {
  const bin = resolveBinary();
  if (!bin.found) {
    const msg =
      `gpuopt: cannot find the gpuopt binary ("${bin.command}"). ` +
      "Install the platform-specific extension, `pip install gpuopt`, or set gpuopt.path.";
    log.error(msg);
    const choice = await vscode.window.showErrorMessage(msg, "Open Settings");
    if (choice === "Open Settings") {
      await vscode.commands.executeCommand("workbench.action.openSettings", "gpuopt.path");
    }
    return;
  }
  log.info(`starting ${bin.command} lsp`);

  const serverOptions: ServerOptions = {
    command: bin.command,
    args: ["lsp"],
    transport: TransportKind.stdio,
    options: { cwd: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "python" },
      { scheme: "untitled", language: "python" },
      // Jupyter notebooks' Python cells: the server advertises LSP 3.17
      // notebook sync, so the client sends whole notebooks.
      { notebook: "jupyter-notebook", language: "python" },
    ],
    initializationOptions: readSettings(),
    outputChannel: log,
    traceOutputChannel: log,
  };

  const c = new LanguageClient("gpuopt", "gpuopt", serverOptions, clientOptions);
  client = c;
  try {
    await c.start();
  } catch (err) {
    client = undefined;
    const msg = `gpuopt: the language server failed to start: ${errorText(err)}`;
    log.error(msg);
    void vscode.window.showErrorMessage(msg);
  }
}

async function stopServer(): Promise<void> {
  const c = client;
  client = undefined;
  if (c === undefined) {
    return;
  }
  try {
    if (c.state !== State.Stopped) {
      await c.stop();
    }
  } catch (err) {
    log.warn(`stopping the server: ${errorText(err)}`);
  }
}

async function restartServer(): Promise<void> {
  await stopServer();
  await startServer();
  if (client?.state === State.Running) {
    void vscode.window.setStatusBarMessage("gpuopt: server restarted", 3000);
  }
}

async function onConfigurationChanged(e: vscode.ConfigurationChangeEvent): Promise<void> {
  if (!e.affectsConfiguration("gpuopt")) {
    return;
  }
  if (e.affectsConfiguration("gpuopt.path")) {
    await restartServer();
    return;
  }
  if (client?.state === State.Running) {
    await client.sendNotification(DidChangeConfigurationNotification.type, {
      settings: { gpuopt: readSettings() },
    });
  }
}

function runningClient(): LanguageClient | undefined {
  if (client?.state === State.Running) {
    return client;
  }
  void vscode.window.showWarningMessage("gpuopt: the language server is not running (see the gpuopt output).");
  return undefined;
}

async function showHardware(): Promise<void> {
  const c = runningClient();
  if (!c) {
    return;
  }
  try {
    const result = await c.sendRequest(ExecuteCommandRequest.type, {
      command: SERVER_SHOW_HARDWARE,
      arguments: [],
    });
    const text =
      typeof result === "string"
        ? result
        : result && typeof result === "object" && typeof (result as { value?: unknown }).value === "string"
          ? (result as { value: string }).value // a MarkupContent
          : JSON.stringify(result, null, 2);
    hardwareChannel ??= vscode.window.createOutputChannel("gpuopt: hardware profile", "markdown");
    hardwareChannel.clear();
    hardwareChannel.appendLine(text ?? "(no hardware profile)");
    hardwareChannel.show(true);
  } catch (err) {
    void vscode.window.showErrorMessage(`gpuopt: show hardware profile failed: ${errorText(err)}`);
  }
}

async function fixAllInFile(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== "python") {
    void vscode.window.showInformationMessage("gpuopt: open a Python file first.");
    return;
  }
  const c = runningClient();
  if (!c) {
    return;
  }
  try {
    // The server applies the edit through workspace/applyEdit before it
    // answers; the answer may say how many fixes went in ({fixes, applied}).
    const result: unknown = await c.sendRequest(ExecuteCommandRequest.type, {
      command: SERVER_FIX_ALL,
      arguments: [c.code2ProtocolConverter.asUri(editor.document.uri)],
    });
    const fixes = (result as { fixes?: unknown } | null)?.fixes;
    if (typeof fixes === "number") {
      vscode.window.setStatusBarMessage(
        fixes === 0 ? "gpuopt: nothing to fix" : `gpuopt: ${fixes} fix${fixes === 1 ? "" : "es"} applied`,
        4000,
      );
    }
  } catch (err) {
    void vscode.window.showErrorMessage(`gpuopt: fix all failed: ${errorText(err)}`);
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
