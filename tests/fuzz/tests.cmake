# The differential fuzzer with cg as the oracle (tests/fuzz/pipefuzz.c, docs/algorithms.md "The cg
# contract"): `make fuzz SEED=... N=...` runs it at length; ctest runs a fixed seed on 1-4 ranks with the leak
# check, each failure printed with its one-line reproducer.
set(PIPEKSP_FUZZ_DIR ${PROJECT_BINARY_DIR}/tests/fuzz)
add_executable(pipefuzz ${CMAKE_CURRENT_LIST_DIR}/pipefuzz.c)
target_link_libraries(pipefuzz PRIVATE pipeksp)
set_target_properties(pipefuzz PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PIPEKSP_FUZZ_DIR})
add_test(NAME fuzz-cg-oracle-seed1
  COMMAND ${PIPEKSP_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/fuzz.py --mpiexec ${PIPEKSP_MPIEXEC} --exe $<TARGET_FILE:pipefuzz>
          --seed 1 --cases 150 --leakcheck)
set_tests_properties(fuzz-cg-oracle-seed1 PROPERTIES LABELS fuzz TIMEOUT 900
  PASS_REGULAR_EXPRESSION "fuzz: [0-9]+ passed, 0 failed" FAIL_REGULAR_EXPRESSION "FUZZFAIL")
# the contract's fixed cases: capped solves (-ksp_max_it 1..10, cube and ex2) at cg's A-norm error within 1.1,
# and our KSPs inside PCKSP and as gamg's smoothers at cg's outer iterations within 10%
add_test(NAME fuzz-capped-nested-np2
  COMMAND ${PIPEKSP_MPIEXEC} -n 2 $<TARGET_FILE:pipefuzz> -table -solvers pipegropp,pipegv,chrongear,pipeplcg,pipeplcg:2,pipeplcg:3,pipeplcg:5)
set_tests_properties(fuzz-capped-nested-np2 PROPERTIES LABELS fuzz TIMEOUT 300
  ENVIRONMENT "${PIPEKSP_TEST_ENV}"
  PASS_REGULAR_EXPRESSION "all checks passed" FAIL_REGULAR_EXPRESSION "FAIL")
# the probe's cases, each against cg in the same run (tests/fuzz/issue_cases.py)
add_test(NAME fuzz-probe-cases
  COMMAND ${PIPEKSP_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/issue_cases.py --mpiexec ${PIPEKSP_MPIEXEC} --exe ${PIPEKSP_TUTDIR}/ex1
          --fuzz $<TARGET_FILE:pipefuzz>)
set_tests_properties(fuzz-probe-cases PROPERTIES LABELS fuzz TIMEOUT 600
  PASS_REGULAR_EXPRESSION "all checks passed" FAIL_REGULAR_EXPRESSION "FAIL")
# chrongear's compensated dot products (include/pipeksp/compsumimpl.h) against PETSc's single-reduction cg on
# bench/dots_cg.c's random diagonal spectra: fewer iterations on more cases than more
add_test(NAME dots-chrongear-vs-cgsr
  COMMAND ${PIPEKSP_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/dots_check.py --mpiexec ${PIPEKSP_MPIEXEC} --exe $<TARGET_FILE:dots_cg>
          --lib $<TARGET_FILE:pipeksp>)
set_tests_properties(dots-chrongear-vs-cgsr PROPERTIES LABELS fuzz TIMEOUT 300
  PASS_REGULAR_EXPRESSION "all checks passed" FAIL_REGULAR_EXPRESSION "FAIL")
# the reproducer reproduces: a batch's cases, rerun alone with -v, end as in the batch (gamg's set-from-options
# defaults differed from its programmatic ones, and only -v set them: seed 93 case 204, cg 17 iterations in the
# run and 141 alone)
add_test(NAME fuzz-reproducer
  COMMAND ${PIPEKSP_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/reproduce_check.py --mpiexec ${PIPEKSP_MPIEXEC} --exe $<TARGET_FILE:pipefuzz>)
set_tests_properties(fuzz-reproducer PROPERTIES LABELS fuzz TIMEOUT 300
  ENVIRONMENT "${PIPEKSP_TEST_ENV}"
  PASS_REGULAR_EXPRESSION "all checks passed" FAIL_REGULAR_EXPRESSION "FAIL")
# one fuzzer case that a fix mended, run alone: its verdict ok, and no miss of any kind
function(pipeksp_fuzz_case name np seed case family solvers)
  add_test(NAME ${name}
    COMMAND ${PIPEKSP_MPIEXEC} -n ${np} $<TARGET_FILE:pipefuzz> -seed ${seed} -caselist ${case} -solvers ${solvers} ${ARGN})
  set_tests_properties(${name} PROPERTIES LABELS fuzz TIMEOUT 120
    ENVIRONMENT "${PIPEKSP_TEST_ENV}"
    PASS_REGULAR_EXPRESSION "FUZZCASE ${case} family=${family} .*verdict=ok" FAIL_REGULAR_EXPRESSION "FUZZFAIL|FUZZSPREAD|FUZZXFAIL")
endfunction()
# diag spectra with few distinct eigenvalues (-few_distinct, not in the seed above): seed 70 case 2879 (13
# distinct in [1, 6.7e9], 4 ranks), where cg's own residual grows 4e3-fold and the growth guard at 1e4
# restarted pipegropp (58 iterations for cg's 38)
pipeksp_fuzz_case(fuzz-diagfew-growth-np4 4 70 2879 diagfew pipegropp -few_distinct)
# real directions whose Cholesky pivot was below sqrt(eps) of (z_c, z_c) (4.6e-10, 8.5e-9) but far above its
# rounding (PLCG_NOISE in src/ksp/pipeplcg.c): taken as invariant spaces, they restarted pipeplcg at depth 5
# and ended at 36 and 25 times cg's true residual (aniso2d, asddic, 2 ranks)
pipeksp_fuzz_case(fuzz-pivot-noise-s61-np2 2 61 4561 aniso2d pipeplcg)
pipeksp_fuzz_case(fuzz-pivot-noise-s72-np2 2 72 4697 aniso2d pipeplcg)
# replacements whose measured gap was over 3 % of ||b - A x|| and within 10 times the residual asked for
# (PIPE_GAP_PERTURB, PIPE_GAP_NEAR in include/pipeksp/pipeguard.h): they perturbed pipegv's recurrences as a
# restart would (a diagonal, no PC, 3 ranks: seed 74 case 46, 2354 iterations for cg's 1831; seed 54 case 3070,
# 958 for 715)
pipeksp_fuzz_case(fuzz-replace-near-s74-np3 3 74 46 diag pipegv)
pipeksp_fuzz_case(fuzz-replace-near-s54-np3 3 54 3070 diag pipegv)
# still iterating at the global size N, where CG ends in exact arithmetic, far from the tolerance: pipegv's and
# chrongear's recurrences lose more to rounding there than cg's, and Gropp's CG from the true residual takes the
# rest (KSPPipeKrylovEnd_Private()). Diagonals with no PC: seed 84 case 1975 (N 62, kappa 3.3e7) took 2048
# iterations with pipegv for cg's 465, case 2580 (N 98) ended at the limit 3000 with pipegv and took 2457 with
# chrongear for cg's 1739
pipeksp_fuzz_case(fuzz-krylov-end-s84-1975-np4 4 84 1975 diag pipegv)
pipeksp_fuzz_case(fuzz-krylov-end-s84-2580-np1 1 84 2580 diag pipegv,chrongear)
# a claim refuted within twice the tolerance at depth 3, restarted at the same depth: its next claims, on x l
# steps on, had worse true residuals (1.5e-10, 3.3e-10), then the floor stop at 11x cg's true residual (seed 72
# case 2700, randspd, bjacobi, 1 rank); every refuted claim now finishes the solve at depth 1
pipeksp_fuzz_case(fuzz-claim-depth1-s72-np1 1 72 2700 randspd pipeplcg)
# the eigenvalue estimates at depth 2 from the steps above 1e-13 of r_0's natural norm (PLCG_EIG_FLOOR_DEPTH2): at
# the deeper bases' 1e-8 a lap3d of 1331 with bjacobi at rtol 1.8e-12 kept 18 of its 29 steps, a largest Ritz value of
# 1.381 for cg's 1.400 (seed 89 case 1725, 2 ranks)
pipeksp_fuzz_case(fuzz-eig-depth2-s89-np2 2 89 1725 lap3d pipeplcg)
# the A-norm error of a singular system measured on A's range: e = x - x* keeps x0's null-space part, and
# e'Ae with it was the rounding of A applied to that part (Neumann, hypre, capped at 6: cg 1.84e-10, chrongear
# 3.06e-10, both 8.29e-12 on the range; seed 91 case 3806, 3 ranks)
pipeksp_fuzz_case(fuzz-anorm-range-s91-np3 3 91 3806 neumann chrongear,pipegropp,pipegv)
