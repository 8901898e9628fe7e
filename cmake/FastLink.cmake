# Links with LLVM's lld (Debian's `lld`, listed in scripts/bootstrap) when the compiler can use
# it: the ~70 test programs each link the static layers, and lld links them several times faster
# than GNU ld (docs/testing.md, "Build time"). Without lld the default linker is used, unchanged;
# -DOUTBOX_LLD=OFF asks for the default linker.
option(OUTBOX_LLD "Link with lld when it is installed" ON)
if(OUTBOX_LLD)
    find_program(OUTBOX_LLD_PROGRAM ld.lld)
    if(OUTBOX_LLD_PROGRAM)
        include(CheckLinkerFlag)
        check_linker_flag(CXX -fuse-ld=lld OUTBOX_LINKER_LLD)
    endif()
    if(OUTBOX_LINKER_LLD)
        add_link_options(-fuse-ld=lld)
    else()
        message(STATUS "lld not found or not usable: linking with the default linker")
    endif()
endif()
