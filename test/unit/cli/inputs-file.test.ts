// Who could have written an inputs file (cli/inputs-file.ts), judged on its status as ssh judges
// its files: owned by the current user or root, writable neither by its group nor by every user.
// The other user's file and link need a second uid, which only this unit test can give.
import { describe, expect, it } from '@jest/globals'
import { writableByOthers } from '../../../cli/inputs-file.js'

describe('writableByOthers', () => {
  const me = 1000
  it('takes a file of the current user or of root that only its owner writes', () => {
    expect(writableByOthers({ uid: me, mode: 0o100600 }, me)).toBeUndefined()
    expect(writableByOthers({ uid: me, mode: 0o100644 }, me)).toBeUndefined()
    expect(writableByOthers({ uid: 0, mode: 0o100644 }, me)).toBeUndefined()
  })

  it("refuses another user's file, and one its group or every user may write, saying the fix", () => {
    expect(writableByOthers({ uid: 4242, mode: 0o100600 }, me)).toContain('owned by another user (uid 4242)')
    expect(writableByOthers({ uid: me, mode: 0o100664 }, me)).toContain(
      'writable by its group (chmod go-w it)'
    )
    expect(writableByOthers({ uid: me, mode: 0o100620 }, me)).toContain('writable by its group')
    expect(writableByOthers({ uid: me, mode: 0o100646 }, me)).toContain(
      'writable by every user (chmod go-w it)'
    )
    expect(writableByOthers({ uid: 0, mode: 0o100666 }, me)).toContain('writable by every user')
  })
})
