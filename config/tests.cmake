include(${PROJECT_SOURCE_DIR}/config/harness.cmake OPTIONAL)
