pragma solidity ^0.8.0;

interface IERC20 {
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
    function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s) external;
}

contract Vault {
    IERC20 public token;
    address public owner;
    mapping(address => uint256) public shares;
    mapping(address => mapping(address => bool)) public operators;

    function depositFor(address from, address to, uint256 amount) external {
        require(token.transferFrom(from, address(this), amount)); // expect: arbitrary-send-erc20
        shares[to] += amount;
    }

    function depositWithPermit(address from, uint256 amount, uint256 deadline, uint8 v, bytes32 r, bytes32 s) external {
        token.permit(from, address(this), amount, deadline, v, r, s);
        require(token.transferFrom(from, address(this), amount)); // expect: arbitrary-send-erc20
        shares[from] += amount;
    }

    function deposit(uint256 amount) external {
        require(token.transferFrom(msg.sender, address(this), amount));
        shares[msg.sender] += amount;
    }

    function depositAsOperator(address from, uint256 amount) external {
        require(operators[from][msg.sender], "not operator");
        require(token.transferFrom(from, address(this), amount));
        shares[from] += amount;
    }

    function sweep(address from, uint256 amount) external {
        require(msg.sender == owner, "owner");
        require(token.transferFrom(from, owner, amount));
    }
}
