// Whether a program is on PATH, as a shell or execFile would find it (an executable regular file in
// one of PATH's folders; on Windows, with one of PATHEXT's extensions). No process is started.
import { accessSync, constants, statSync } from 'node:fs'
import path from 'node:path'

export function onPath(program: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const windows = process.platform === 'win32'
  const exts = windows ? ['', ...(env.PATHEXT ?? '.EXE;.CMD;.BAT;.COM').split(';').filter(Boolean)] : ['']
  for (const dir of (env.PATH ?? env.Path ?? '').split(path.delimiter).filter(Boolean))
    for (const ext of exts) {
      const file = path.join(dir, program + ext)
      try {
        if (!statSync(file).isFile()) continue
        accessSync(file, windows ? constants.F_OK : constants.X_OK)
        return file
      } catch {
        /* not here */
      }
    }
  return undefined
}
