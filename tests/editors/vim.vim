" Drives Vim with ALE (Debian's vim-ale) as a user would: with vimrc (docs/editors.md), open a
" file, read the diagnostics ALE shows, apply the preferred code action through ALE, read them
" again. Writes what it saw to $RESULT.
set nocompatible
filetype on
source $DRIVERS/vimrc
let g:ale_lint_delay = 0

let s:seen = []
function! s:Codes() abort
  let l:codes = map(copy(ale#engine#GetLoclist(bufnr(''))), 'get(v:val, "code", "?")')
  return join(sort(l:codes), ',')
endfunction
function! s:WaitUntil(condition) abort
  let l:waited = 0
  while !eval(a:condition) && l:waited < str2nr($WAIT_MS)
    sleep 50m
    let l:waited += 50
  endwhile
endfunction

edit train.py
ALELint
call s:WaitUntil('!empty(ale#engine#GetLoclist(bufnr("")))')
call add(s:seen, 'before: ' . s:Codes())

let s:picked = 0
function! s:Pick(data, items) abort
  for [l:kind, l:action] in a:items
    if get(l:action, 'isPreferred', 0) && !s:picked
      let s:picked = 1
      call ale#codefix#ApplyLSPCodeAction(a:data, l:action)
      call add(s:seen, 'applied: ' . l:action.title)
    endif
  endfor
endfunction
call cursor(3, 1)
call ale#codefix#Execute(0, function('s:Pick'))
call s:WaitUntil('s:picked')
ALELint
call s:WaitUntil('empty(ale#engine#GetLoclist(bufnr("")))')
call add(s:seen, 'after: ' . s:Codes())
call add(s:seen, 'text: ' . join(getline(1, '$'), '\n'))
call writefile(s:seen, $RESULT)
qall!
