#!/bin/bash
# Live changes: heads step through the divisors of d_model, a non-divisor is
# explained (why, and which heads would work), d_model moves the heads to a
# divisor and says so, and new tokens replace the example.
. "$(dirname "$0")/lib.sh"

start 120 40
wait_for "heads 2 │ d_k 3"
keys +
wait_for "heads 3 │ d_k 2"
keys +
wait_for "heads 6 │ d_k 1"
keys -
keys -
keys -
wait_for "heads 1 │ d_k 6"
keys 2
wait_for "head 0"
keys :
type_text "heads 4"
keys Enter
wait_for "4 heads do not divide d_model 6"
wait_for "d_k = d_model / heads"
wait_for "1, 2, 3, 6)"
wait_for "heads 1 │ d_k 6"
keys +
wait_for "heads 2 │ d_k 3"
keys ]
wait_for "d_model 7"
wait_for "nearest divisor"
keys :
type_text "tokens The cat sat on the mat"
keys Enter
wait_for "6 tokens"
wait_for "mat"
keys :
type_text "d_model 8"
keys Enter
keys :
type_text "heads 4"
keys Enter
wait_for "heads 4 │ d_k 2"
keys q
wait_exit 0
