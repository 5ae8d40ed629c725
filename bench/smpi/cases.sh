# What a PC and a solver of the SMPI solves mean as bench_cube options, sourced by solve.sh and rates.sh so that
# the rates are measured on the runs they price.
smpi_solvers="cg pipecg pipelcg pipegv-none pipegv-poll pipeplcg"
pc_options() {
  case $1 in
    asddic) echo "-pc_type asddic" ;;
    bjacobi) echo "-pc_type bjacobi -sub_pc_type icc" ;;
    *) echo "-pc_type $1" ;;
  esac
}
# the cube's matrix type and the rates priced with it: GAMG builds no graph from BAIJ (PETSc 3.26: "No method
# creategraph for Mat of type mpibaij"), so it runs on the AIJ matrix with rates measured on it
mat_options() { [ "$1" = gamg ] && echo "-cube_mat_type aij"; }
write_cfg() { # file pc-options solvers... (+ cg-limit under the emulator): bench_cube's -bench_config
  local f=$1 pco=$2 k common="-ksp_rtol 1e-8 -ksp_norm_type unpreconditioned"
  shift 2
  for k in "$@"; do
    case $k in
      pipelcg) echo "$k|-ksp_type pipelcg -ksp_rtol 1e-8 -ksp_norm_type natural $pco" ;;
      cg-limit) echo "$k|-ksp_type cg $common $pco -bench_latency_free" ;;
      *-*) echo "$k|-ksp_type ${k%%-*} -ksp_pipe_progress ${k#*-} $common $pco" ;;
      *) echo "$k|-ksp_type $k $common $pco" ;;
    esac
  done > "$f"
}
